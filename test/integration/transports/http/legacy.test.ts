/** Legacy (initialize-era) Streamable HTTP: sessions, streams, asks, resumption, batches (F1-F8). */
import { request as httpRequest } from 'node:http';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import {
  JSON_HEADERS,
  leaveAfterFirstChunk,
  makeApp,
  parseSse,
  probe,
  RawLegacyClient,
  rawRequest,
  replyOf,
  streamingRequest,
  trackProcessFaults,
  waitFor,
} from '../../../helpers/http-fixtures';

let server: HttpServerHandle;
let app: ReturnType<typeof makeApp>;
const faults = trackProcessFaults();

beforeAll(async () => {
  app = makeApp({ authenticate: ({ headers }) => ({ id: String(headers?.['x-user'] ?? 'anonymous') }) });
  server = await serveHttp(app, {
    port: 0,
    maxSessions: 1200,
    maxSessionsPerPrincipal: 1200,
    sessionIdleTimeoutMs: 1000,
  });
});
afterAll(async () => {
  await server.close({ deadlineMs: 2000 });
  faults.stop();
  expect(faults.faults).toEqual([]);
});

async function session(version = '2025-11-25', user = 'alice', capabilities: Record<string, unknown> = {}) {
  const c = new RawLegacyClient(server.url, version, { 'X-User': user });
  const init = await c.initialize(capabilities);
  expect(init.status).toBe(200);
  return c;
}

test('initialize creates a session with a visible-ASCII id; requests on it answer JSON', async () => {
  const c = await session();
  expect(c.sessionId).toMatch(/^[\x21-\x7e]+$/);
  const r = await c.call(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
  expect(r.status).toBe(200);
  expect(r.json()).toMatchObject({ id: 1, result: { content: [{ text: 'hi' }] } });
  expect(r.json().result.resultType).toBeUndefined();
});

test('progress on a legacy session streams SSE with a priming event and event ids (2025-11-25)', async () => {
  const c = await session();
  const r = await c.call(2, 'tools/call', { name: 'slow', arguments: { steps: 2 }, _meta: { progressToken: 7 } });
  expect(r.headers['content-type']).toBe('text/event-stream');
  expect(r.text.startsWith('id: ')).toBe(true);
  expect(r.text).toMatch(/^retry: \d+$/m);
  expect(replyOf(r)).toMatchObject({ id: 2, result: { content: [{ text: 'done 2' }] } });
});

test('a server-to-client elicitation goes on the POST stream; the posted answer gets 202', async () => {
  const c = await session('2025-11-25', 'alice', { elicitation: {} });
  const statuses: number[] = [];
  const result = await streamingRequest(
    server.url,
    {
      headers: c.headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'greet', arguments: { text: 'x' } },
      }),
    },
    (ev) => {
      if (ev.method === 'elicitation/create') {
        void c
          .post({ jsonrpc: '2.0', id: ev.id, result: { action: 'accept', content: { name: 'Grace' } } })
          .then((r) => statuses.push(r.status));
      }
    },
  );
  expect(result.events.pop()).toMatchObject({ id: 3, result: { content: [{ text: 'Hello, Grace!' }] } });
  expect(statuses).toEqual([202]);
});

test('stateless legacy (no session, no initialize): served once; an ask fails with an actionable error', async () => {
  const r = await rawRequest(server.url, {
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': '2025-06-18' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'greet', arguments: { text: 'x' } },
    }),
  });
  expect(r.status).toBe(200);
  expect(JSON.stringify(r.json())).toMatch(/capability|session/i);
  const bad = await rawRequest(server.url, {
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': '1999-01-01' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  expect(bad.status).toBe(400);
  expect(bad.json().id).toBe(2);
});

test('stateless legacy: a client that walks away aborts the handler, and nothing more is written', async () => {
  const before = probe.aborted;
  // The first progress arrives: the client walks away, and nobody can resume this stream.
  const received = await leaveAfterFirstChunk(
    server.url,
    { ...JSON_HEADERS, 'MCP-Protocol-Version': '2025-06-18' },
    JSON.stringify({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'hang', arguments: { text: 'x' }, _meta: { progressToken: 'p' } },
    }),
    100,
  );
  await waitFor(() => probe.aborted > before);
  const events = parseSse(received).filter((e) => e.method === 'notifications/progress');
  expect(events.map((e) => e.params.progress)).toEqual([1]);
  // The server keeps serving.
  const r = await rawRequest(server.url, {
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': '2025-06-18' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'still here' } },
    }),
  });
  expect(JSON.stringify(r.json())).toContain('still here');
});

test('F2: unknown, deleted and expired sessions are 404; DELETE terminates', async () => {
  const unknown = await rawRequest(server.url, {
    headers: { ...JSON_HEADERS, 'Mcp-Session-Id': 'nope' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }),
  });
  expect(unknown.status).toBe(404);
  expect(unknown.json().id).toBe(5);
  const c = await session();
  const del = await rawRequest(server.url, { method: 'DELETE', headers: c.headers() });
  expect(del.status).toBe(200);
  expect((await c.call(6, 'tools/list')).status).toBe(404);
  expect((await rawRequest(server.url, { method: 'DELETE', headers: c.headers() })).status).toBe(404);
  const idle = await session();
  await new Promise((r) => setTimeout(r, 1600));
  expect((await idle.call(7, 'tools/list')).status).toBe(404);
});

test('F3: another principal presenting a session id gets the same 404 as an unknown id', async () => {
  const alice = await session('2025-11-25', 'alice');
  const bob = new RawLegacyClient(server.url, '2025-11-25', { 'X-User': 'bob' });
  bob.sessionId = alice.sessionId;
  const stolen = await bob.call(8, 'tools/call', { name: 'echo', arguments: { text: 'secret' } });
  const unknown = await rawRequest(server.url, {
    headers: { ...JSON_HEADERS, 'Mcp-Session-Id': 'x', 'X-User': 'bob' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call' }),
  });
  expect(stolen.status).toBe(404);
  expect(stolen.text).toBe(unknown.text);
  expect((await alice.call(9, 'tools/list')).status).toBe(200);
});

test('F1: 1 000 sessions have distinct CSPRNG ids of visible ASCII', async () => {
  const ids = new Set<string>();
  for (let i = 0; i < 10; i++) {
    const batch = await Promise.all(Array.from({ length: 100 }, () => session('2025-11-25', 'f1')));
    for (const c of batch) ids.add(c.sessionId!);
  }
  expect(ids.size).toBe(1000);
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('F5: Last-Event-ID never replays across streams or sessions', async () => {
  const a = await session();
  const b = await session();
  const r = await a.call(10, 'tools/call', { name: 'slow', arguments: { steps: 2 }, _meta: { progressToken: 1 } });
  const firstId = /^id: (.*)$/m.exec(r.text)![1]!;
  // Session b presents a's event id: nothing of a's is replayed.
  const chunks: string[] = [];
  await new Promise<void>((resolve) => {
    const req = httpRequest(
      server.url,
      { method: 'GET', headers: { ...b.headers(), Accept: 'text/event-stream', 'Last-Event-ID': firstId } },
      (res) => {
        res.on('data', (c: Buffer) => chunks.push(c.toString()));
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 150);
      },
    );
    req.on('error', () => undefined);
    req.end();
  });
  expect(chunks.join('')).not.toMatch(/progress|done 2/);
  // a's own resume replays the rest of that stream only.
  const resumed = await rawRequest(server.url, {
    method: 'GET',
    headers: { ...a.headers(), Accept: 'text/event-stream', 'Last-Event-ID': firstId },
  });
  expect(resumed.events().map((e: any) => e.params?.progress ?? e.result?.content?.[0]?.text)).toEqual([
    1,
    2,
    'done 2',
  ]);
});

test('SSE polling: the tool closes its stream; GET + Last-Event-ID delivers the result', async () => {
  const c = await session();
  const first = await streamingRequest(
    server.url,
    {
      headers: c.headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 11,
        method: 'tools/call',
        params: { name: 'test_reconnection', arguments: { text: 'x' }, _meta: { progressToken: 'r' } },
      }),
    },
    () => undefined,
  );
  expect(first.events.some((e) => 'result' in e)).toBe(false);
  const last = first.ids[first.ids.length - 1]!;
  await new Promise((r) => setTimeout(r, 100));
  const resumed = await rawRequest(server.url, {
    method: 'GET',
    headers: { ...c.headers(), Accept: 'text/event-stream', 'Last-Event-ID': last },
  });
  expect(resumed.events().pop()).toMatchObject({ id: 11, result: { content: [{ text: 'reconnected' }] } });
});

test('GET stream: list_changed after notifications/initialized; a second GET is 409', async () => {
  const c = await session();
  const events: any[] = [];
  const req = httpRequest(
    server.url,
    { method: 'GET', headers: { ...c.headers(), Accept: 'text/event-stream' } },
    (res) => {
      res.on('data', (ch: Buffer) => {
        for (const line of ch.toString().split('\n'))
          if (line.startsWith('data: ') && line.length > 7) events.push(JSON.parse(line.slice(6)));
      });
    },
  );
  req.on('error', () => undefined);
  req.end();
  await new Promise((r) => setTimeout(r, 50));
  const second = await rawRequest(server.url, {
    method: 'GET',
    headers: { ...c.headers(), Accept: 'text/event-stream' },
  });
  expect(second.status).toBe(409);
  app.addTool({ name: `dyn_${Date.now()}`, description: 'd', handler: () => 'x' });
  await waitFor(() => events.some((e) => e.method === 'notifications/tools/list_changed'));
  req.destroy();
});

test('F8: batches on 2025-03-26 only: 100 served, 101 refused; arrays refused on later revisions', async () => {
  const old = await session('2025-03-26');
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: `n${i}` } },
    }));
  const ok = await old.post(items(100));
  expect(ok.status).toBe(200);
  expect(ok.json()).toHaveLength(100);
  expect(ok.json()[99]).toMatchObject({ id: 99, result: { content: [{ text: 'n99' }] } });
  expect((await old.post(items(101))).status).toBe(400);
  expect((await old.post([])).status).toBe(400);
  const initInBatch = await old.post([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }]);
  expect(initInBatch.json()[0].error.code).toBe(-32600);
  const modern = await session('2025-06-18');
  const refused = await modern.post(items(1));
  expect(refused.status).toBe(400);
  expect(refused.json().error.code).toBe(-32600);
  expect((await modern.call(1, 'tools/list')).status).toBe(200);
});

test('F7: notifications/cancelled aborts the request of that session; nothing pending leaks', async () => {
  const c = await session('2025-11-25', 'alice', { elicitation: {} });
  let askId: unknown;
  const done = streamingRequest(
    server.url,
    {
      headers: c.headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 12,
        method: 'tools/call',
        params: { name: 'greet', arguments: { text: 'x' } },
      }),
    },
    (ev) => {
      if (ev.method === 'elicitation/create') askId = ev.id;
    },
  );
  await waitFor(() => askId !== undefined);
  expect((await c.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 12 } })).status).toBe(
    202,
  );
  await done;
  expect((await c.call(13, 'tools/list')).status).toBe(200);
});

test('request ids: one in flight is refused again; a finished one, synchronous or not, can be reused', async () => {
  const c = await session('2025-11-25', 'alice', { elicitation: {} });
  let asked = false;
  const done = streamingRequest(
    server.url,
    {
      headers: c.headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 21,
        method: 'tools/call',
        params: { name: 'greet', arguments: { text: 'x' } },
      }),
    },
    (ev) => {
      if (ev.method === 'elicitation/create') asked = true;
    },
  );
  await waitFor(() => asked);
  const twice = await c.call(21, 'tools/call', { name: 'echo', arguments: { text: 'again' } });
  expect(twice.status).toBe(400);
  expect(twice.json()).toMatchObject({ id: 21, error: { message: expect.stringContaining('already in flight') } });
  // A synchronous call with the same id as the one in flight is refused too, and does not end it.
  expect((await c.call(21, 'tools/list')).status).toBe(400);
  expect((await c.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 21 } })).status).toBe(
    202,
  );
  await done;
  // Finished: the id is free again; a synchronous call leaves it free as well.
  for (const text of ['one', 'two']) {
    const r = await c.call(21, 'tools/call', { name: 'echo', arguments: { text } });
    expect(replyOf(r)).toMatchObject({ id: 21, result: { content: [{ text }] } });
  }
});

test('authentication: a throwing hook is 401 with a JSON-RPC body', async () => {
  const locked = makeApp({ authenticate: () => {
    throw new Error('bad token');
  } });
  const s = await serveHttp(locked, { port: 0 });
  const r = await rawRequest(s.url, {
    headers: JSON_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
  });
  expect(r.status).toBe(401);
  expect(r.json()).toMatchObject({ id: 1, error: { message: expect.stringContaining('bad token') } });
  await s.close({ deadlineMs: 500 });
});
