/**
 * serveHttp's opt-in readiness route (200 with the key fingerprint, 503 once draining) and the
 * instance tag in legacy session ids, over a real socket.
 */
import { randomBytes } from 'node:crypto';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { ContextServerModule, McpApplication, Tool } from '../../../src';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { silentLogger } from '../../../src/server/core/server-logger';
import { JSON_HEADERS, modernPost, rawRequest } from '../../helpers/http-fixtures';

class Slow {
  static release: () => void = () => undefined;
  @Tool({ description: 'waits until released' })
  async wait() {
    await new Promise<void>((resolve) => (Slow.release = resolve));
    return 'done';
  }
}

const key = randomBytes(32);
function makeApp(k: Buffer = key): McpApplication {
  return McpApplication.create({
    name: 'ready-e2e',
    version: '1.0.0',
    providers: [Slow],
    modules: [ContextServerModule.configure({ logger: silentLogger, requestStateKey: k })],
  });
}

async function get(port: number, path: string, method = 'GET'): Promise<{ status: number; body: string }> {
  const r = await rawRequest(`http://127.0.0.1:${port}${path}`, { method });
  return { status: r.status, body: r.text };
}

async function post(port: number, body: object, version: string) {
  const headers = { ...JSON_HEADERS, 'mcp-protocol-version': version };
  const r = await rawRequest(`http://127.0.0.1:${port}/mcp`, { headers, body: JSON.stringify(body) });
  return { status: r.status, headers: r.headers, body: r.text };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

describe('with readinessPath and sessionIdPrefix', () => {
  let server: HttpServerHandle;
  let app: McpApplication;
  beforeAll(async () => {
    app = makeApp();
    server = await serveHttp(app, { port: 0, readinessPath: '/ready', sessionIdPrefix: 'i7' });
  });
  afterAll(() => server.close({ deadlineMs: 1000 }));

  test('ready: 200 with the requestState key fingerprint', async () => {
    const res = await get(server.port, '/ready');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ready', requestStateKey: app.stateKeyFingerprint });
  });

  test('another key shows another fingerprint; the same key the same', () => {
    expect(makeApp(randomBytes(32)).stateKeyFingerprint).not.toBe(app.stateKeyFingerprint);
    expect(makeApp(key).stateKeyFingerprint).toBe(app.stateKeyFingerprint);
  });

  test('only GET and HEAD; a query string is ignored', async () => {
    expect((await get(server.port, '/ready', 'POST')).status).toBe(405);
    expect((await get(server.port, '/ready', 'HEAD')).status).toBe(200);
    expect((await get(server.port, '/ready?probe=1')).status).toBe(200);
  });

  test('legacy session ids carry the instance tag', async () => {
    const res = await post(server.port, initialize, '2025-11-25');
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toMatch(/^i7\.[0-9a-f-]{36}$/);
  });

  test('the MCP endpoint still answers, other paths are 404', async () => {
    expect((await get(server.port, '/elsewhere')).status).toBe(404);
  });
});

test('draining: the route says 503 once close() has begun, while an in-flight call still finishes', async () => {
  const server = await serveHttp(makeApp(), { port: 0, readinessPath: '/healthz' });
  const call = modernPost(server.url, 2, 'tools/call', { name: 'wait', arguments: {} });
  await new Promise((r) => setTimeout(r, 100));
  expect((await get(server.port, '/healthz')).status).toBe(200);
  const closed = server.close({ deadlineMs: 5000 });
  // The listening socket is closed now: ask the server's own request handler, as a kept-alive connection would.
  const answer = await inProcess(server, '/healthz');
  expect(answer).toEqual({ status: 503, body: expect.stringContaining('"status":"draining"') });
  Slow.release();
  const res = await call;
  expect(res.status).toBe(200);
  expect(res.text).toContain('done');
  await closed;
});

/** Runs the server's request listener on a request that never touched a socket. */
function inProcess(server: HttpServerHandle, path: string): Promise<{ status: number; body: string }> {
  const req = Object.assign(new PassThrough(), {
    url: path,
    method: 'GET',
    headers: { host: `127.0.0.1:${server.port}` },
  });
  const res = new ServerResponse(req as unknown as IncomingMessage);
  const chunks: Buffer[] = [];
  const sink = new Writable({ write: (c: Buffer, _e, done) => (chunks.push(Buffer.from(c)), done()) });
  res.assignSocket(sink as unknown as Socket);
  return new Promise((resolve) => {
    res.on('finish', () => {
      const raw = Buffer.concat(chunks).toString();
      resolve({ status: res.statusCode, body: raw.slice(raw.indexOf('\r\n\r\n') + 4) });
    });
    server.server.emit('request', req, res);
  });
}

test('without readinessPath the path is not special', async () => {
  const server = await serveHttp(makeApp(), { port: 0 });
  try {
    expect((await get(server.port, '/ready')).status).toBe(404);
  } finally {
    await server.close({ deadlineMs: 1000 });
  }
});

test('bad option values are refused at start-up', async () => {
  await expect(serveHttp(makeApp(), { port: 0, sessionIdPrefix: 'a.b' })).rejects.toThrow(/sessionIdPrefix/);
  await expect(serveHttp(makeApp(), { port: 0, readinessPath: 'ready' })).rejects.toThrow(/readinessPath/);
});
