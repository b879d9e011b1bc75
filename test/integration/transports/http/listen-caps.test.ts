/**
 * 2026 `subscriptions/listen` caps on the wire: open streams per principal, for all clients
 * without a principal together, and in all. A refused listen is -32600 naming the option; closing
 * a stream frees its slot; other calls are served throughout.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { ContextServerModule, McpApplication, serveHttp, type HttpServerHandle } from '../../../../src';
import { silentLogger } from '../../../../src/server/core/server-logger';
import { MessageConnection } from '../../../../src/transports/message-connection';
import type { JsonRpcMessage } from '../../../../src/protocol/jsonrpc';
import { JSON_HEADERS, MODERN, modernMeta, modernPost, TestTools, waitFor } from '../../../helpers/http-fixtures';

const byHeader = ({ headers }: { headers?: Record<string, unknown> }) =>
  typeof headers?.['x-user'] === 'string' ? { id: headers['x-user'] } : undefined;

function app(limits: Record<string, number>) {
  return McpApplication.create({
    name: 'listen-caps',
    version: '1.0.0',
    providers: [TestTools],
    modules: [ContextServerModule.configure({ logger: silentLogger, authenticate: byHeader as never, ...limits })],
  });
}

interface OpenListen {
  status: number;
  text: () => string;
  req: ClientRequest;
}

/** Opens a listen stream and resolves once its first bytes (ack or error) arrived. */
function listen(url: string, id: number, user?: string): Promise<OpenListen> {
  return new Promise((resolve, reject) => {
    let text = '';
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: modernMeta() },
    });
    const headers = {
      ...JSON_HEADERS,
      'MCP-Protocol-Version': MODERN,
      'Mcp-Method': 'subscriptions/listen',
      ...(user ? { 'X-User': user } : {}),
    };
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.on('data', (c: Buffer) => {
        text += c.toString();
        resolve({ status: res.statusCode ?? 0, text: () => text, req });
      });
      res.on('error', () => undefined);
    });
    req.on('error', (e) => (text ? undefined : reject(e)));
    req.end(body);
  });
}

describe('over HTTP', () => {
  let server: HttpServerHandle;
  beforeAll(async () => {
    server = await serveHttp(
      app({ maxListenStreams: 5, maxListenStreamsPerPrincipal: 2, maxAnonymousListenStreams: 2 }),
      { port: 0 },
    );
  });
  afterAll(() => server.close({ deadlineMs: 1000 }));

  test('per principal, anonymous bucket and global caps; a closed stream frees its slot; calls still served', async () => {
    const a1 = await listen(server.url, 1, 'alice');
    const a2 = await listen(server.url, 2, 'alice');
    expect(a1.text()).toContain('acknowledged');
    expect(a2.text()).toContain('acknowledged');
    const a3 = await listen(server.url, 3, 'alice');
    expect(JSON.parse(a3.text()).error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('maxListenStreamsPerPrincipal'),
    });

    const anon = [await listen(server.url, 4), await listen(server.url, 5)];
    expect(anon.every((l) => l.text().includes('acknowledged'))).toBe(true);
    const anon3 = await listen(server.url, 6);
    expect(JSON.parse(anon3.text()).error.message).toContain('maxAnonymousListenStreams');

    const b1 = await listen(server.url, 7, 'bob');
    expect(b1.text()).toContain('acknowledged');
    const b2 = await listen(server.url, 8, 'bob'); // bob is within his quota, but 5 streams are open
    expect(JSON.parse(b2.text()).error.message).toContain('maxListenStreams');

    const echo = await modernPost(server.url, 9, 'tools/call', { name: 'echo', arguments: { text: 'served' } });
    expect(echo.json().result.content[0].text).toBe('served');

    a1.req.destroy(); // the client leaves: its slot is freed
    let again: OpenListen | undefined;
    await waitFor(() => {
      if (!again)
        void listen(server.url, 10, 'alice').then((l) =>
          l.text().includes('acknowledged') ? (again = l) : l.req.destroy(),
        );
      return again !== undefined;
    });
    for (const l of [a2, ...anon, b1, again!]) l.req.destroy();
  });
});

test('stdio: the per-connection principal quota applies, and cancelling a stream frees its slot', async () => {
  const application = app({ maxListenStreamsPerPrincipal: 1 });
  const sent: JsonRpcMessage[] = [];
  const conn = new MessageConnection(application.endpoint, (m) => sent.push(...(Array.isArray(m) ? m : [m])), {
    principal: { id: 'local' },
  });
  const open = (id: number) =>
    conn.receiveValue({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { _meta: modernMeta(), notifications: {} },
    });
  open(1);
  open(2);
  await waitFor(() => sent.length >= 2);
  expect(sent[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
  expect(sent[1]).toMatchObject({
    id: 2,
    error: { code: -32600, message: expect.stringContaining('maxListenStreamsPerPrincipal') },
  });
  conn.receiveValue({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
  open(3);
  await waitFor(() => sent.length >= 3);
  expect(sent[2]).toMatchObject({
    method: 'notifications/subscriptions/acknowledged',
    params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 3 } },
  });
  await conn.drain();
});

test('a listen resourceSubscriptions URI over maxUriLength is -32602 and takes no slot', async () => {
  const application = app({ maxListenStreamsPerPrincipal: 1, maxUriLength: 128 });
  const sent: JsonRpcMessage[] = [];
  const conn = new MessageConnection(application.endpoint, (m) => sent.push(...(Array.isArray(m) ? m : [m])), {
    principal: { id: 'local' },
  });
  const open = (id: number, uri: string) =>
    conn.receiveValue({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { _meta: modernMeta(), notifications: { resourceSubscriptions: [uri] } },
    });
  open(1, 'test://' + 'x'.repeat(200));
  await waitFor(() => sent.length >= 1);
  expect(sent[0]).toMatchObject({ id: 1, error: { code: -32602, message: expect.stringContaining('maxUriLength') } });
  open(2, 'test://short');
  await waitFor(() => sent.length >= 2);
  expect(sent[1]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
  await conn.drain();
});
