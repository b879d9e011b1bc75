/**
 * URL elicitation on 2025-11-25: notifications/elicitation/complete may arrive after the request
 * that started the flow has finished (the spec's -32042 flow), on the session's own channel — the
 * standalone GET stream over HTTP, the connection on stdio's message stream — and only there.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { Context, ContextServerModule, McpApplication, ProtocolError, Tool } from '../../../../src';
import type { JsonRpcMessage } from '../../../../src/protocol/jsonrpc';
import { silentLogger } from '../../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import { MessageConnection } from '../../../../src/transports/message-connection';
import { RawLegacyClient, replyOf, waitFor } from '../../../helpers/http-fixtures';

/** What an OAuth callback route would hold: the flows waiting for their user. */
const flows = new Map<string, Context>();

class Connecting {
  @Tool({ description: 'Needs the user to sign in at a URL first' })
  connect(ctx: Context): string {
    const elicitationId = `flow-${flows.size + 1}`;
    flows.set(elicitationId, ctx);
    throw ProtocolError.urlElicitationRequired([
      { url: 'https://example.com/auth', message: 'Sign in', elicitationId },
    ]);
  }
}

function makeApp() {
  return McpApplication.create({
    name: 'url',
    version: '1.0.0',
    providers: [Connecting],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
}

/** The callback: the user finished the out-of-band flow. */
function finish(elicitationId: string) {
  flows.get(elicitationId)!.completeUrlElicitation(elicitationId);
}

describe('HTTP session', () => {
  let server: HttpServerHandle;
  beforeAll(async () => {
    server = await serveHttp(makeApp(), { port: 0 });
  });
  afterAll(() => server.close({ deadlineMs: 2000 }));

  function openGetStream(c: RawLegacyClient): { events: any[]; req: ClientRequest } {
    const events: any[] = [];
    const req = httpRequest(
      server.url,
      { method: 'GET', headers: { ...c.headers(), Accept: 'text/event-stream' } },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          for (const line of chunk.split('\n'))
            if (line.startsWith('data: ') && line.length > 6) events.push(JSON.parse(line.slice(6)));
        });
      },
    );
    req.on('error', () => undefined);
    req.end();
    return { events, req };
  }

  test('2025-11-25: -32042, then the completion arrives on the GET stream after the request finished', async () => {
    const c = new RawLegacyClient(server.url, '2025-11-25');
    await c.initialize({ elicitation: { url: {} } });
    const get = openGetStream(c);
    const r = await c.call(1, 'tools/call', { name: 'connect', arguments: {} });
    const error = replyOf(r).error;
    expect(error.code).toBe(-32042);
    const { elicitationId } = error.data.elicitations[0];
    finish(elicitationId);
    await waitFor(() => get.events.length > 0);
    expect(get.events).toEqual([
      { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId } },
    ]);
    get.req.destroy();
  });

  test('2025-06-18 has no URL elicitation: no -32042 and no completion is ever sent', async () => {
    const c = new RawLegacyClient(server.url, '2025-06-18');
    await c.initialize({ elicitation: {} });
    const get = openGetStream(c);
    const r = await c.call(1, 'tools/call', { name: 'connect', arguments: {} });
    expect(replyOf(r).error.code).toBe(-32603);
    finish(`flow-${flows.size}`);
    // A round trip after the attempt: had anything been sent, it would be on the stream by now.
    const ping = await c.call(2, 'ping');
    expect(ping.status).toBe(200);
    expect(get.events).toEqual([]);
    get.req.destroy();
  });
});

test('stdio message stream, 2025-11-25: the completion after the request finished goes on the connection', async () => {
  const sent: JsonRpcMessage[] = [];
  const conn = new MessageConnection(makeApp().endpoint, (m) => sent.push(...(Array.isArray(m) ? m : [m])));
  conn.receiveValue({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { url: {} } },
      clientInfo: { name: 't', version: '0' },
    },
  });
  conn.receiveValue({ jsonrpc: '2.0', method: 'notifications/initialized' });
  conn.receiveValue({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'connect', arguments: {} } });
  await waitFor(() => sent.some((m) => 'id' in m && m.id === 1));
  const error = (
    sent.find((m) => 'id' in m && m.id === 1) as {
      error: { code: number; data: { elicitations: Array<{ elicitationId: string }> } };
    }
  ).error;
  expect(error.code).toBe(-32042);
  const { elicitationId } = error.data.elicitations[0]!;
  finish(elicitationId);
  await conn.drain();
  expect(sent.at(-1)).toEqual({
    jsonrpc: '2.0',
    method: 'notifications/elicitation/complete',
    params: { elicitationId },
  });
});
