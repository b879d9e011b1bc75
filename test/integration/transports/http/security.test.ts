/** HTTP hardening: Host/Origin (E1-E5), exposure defaults (E4), session cap (F6), cross-client routing (F4). */
import { FrameworkError } from '../../../../src';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import {
  JSON_HEADERS,
  makeApp,
  modernPost,
  RawLegacyClient,
  rawRequest,
  replyOf,
  streamingRequest,
  trackProcessFaults,
} from '../../../helpers/http-fixtures';

let server: HttpServerHandle;
const faults = trackProcessFaults();

beforeAll(async () => {
  server = await serveHttp(makeApp(), { port: 0 });
});
afterAll(async () => {
  await server.close({ deadlineMs: 2000 });
  faults.stop();
  expect(faults.faults).toEqual([]);
});

const discover = (headers: Record<string, string>) => modernPost(server.url, 1, 'server/discover', {}, headers);

test('E1: a rebinding attempt (evil Host and Origin) is refused; the real localhost forms are accepted', async () => {
  expect((await discover({ Host: 'evil.example.com', Origin: 'http://evil.example.com' })).status).toBe(403);
  expect((await discover({ Host: 'evil.example.com' })).status).toBe(403);
  for (const host of ['localhost', '127.0.0.1', '[::1]']) {
    const hp = `${host}:${server.port}`;
    expect((await discover({ Host: hp, Origin: `http://${hp}` })).status).toBe(200);
  }
  expect((await discover({ Host: `LOCALHOST:${server.port}` })).status).toBe(200); // Host names are case-insensitive
});

test('E2: Origin bypass forms are refused (403), allowlisted forms pass', async () => {
  const p = server.port;
  const refused = [
    'null',
    `http://localhost.evil.com:${p}`,
    `http://127.0.0.1.nip.io:${p}`,
    `http://LOCALHOST:${p}`,
    `http://localhost.:${p}`,
    `http://user@localhost:${p}`,
    'not a url',
    `http://localhost:${p + 1}`,
    `http://[::1]`,
    `http://localhost:${p}/path`,
    `ftp://localhost:${p}`,
    `http://127.0.0.2:${p}`,
    `http://0.0.0.0:${p}`,
  ];
  for (const origin of refused) {
    const r = await discover({ Origin: origin });
    expect([origin, r.status]).toEqual([origin, 403]);
  }
  for (const origin of [`http://localhost:${p}`, `https://127.0.0.1:${p}`, `http://[::1]:${p}`]) {
    expect((await discover({ Origin: origin })).status).toBe(200);
  }
});

test('E3: no Origin (a non-browser client) is allowed; Host still checked', async () => {
  expect((await discover({})).status).toBe(200);
});

test('E4: default bind is loopback; a public bind without allowlists refuses to start', async () => {
  expect(server.server.address()).toMatchObject({ address: '127.0.0.1' });
  await expect(serveHttp(makeApp(), { host: '0.0.0.0', port: 0 })).rejects.toThrow(FrameworkError);
  await expect(serveHttp(makeApp(), { host: '0.0.0.0', port: 0 })).rejects.toThrow(/OMC_INVALID_OPTIONS/);
  await expect(serveHttp(makeApp(), { port: 0, cors: { origins: ['*'] } as never })).rejects.toThrow(
    /OMC_INVALID_OPTIONS/,
  );
  await expect(serveHttp(makeApp(), { port: 0, maxBodyBytes: -1 })).rejects.toThrow(/OMC_INVALID_OPTIONS/);
});

test('E5: CORS is off by default; when on, only allowlisted origins are reflected, never *', async () => {
  const pre = await rawRequest(server.url, {
    method: 'OPTIONS',
    headers: { Origin: `http://localhost:${server.port}`, 'Access-Control-Request-Method': 'POST' },
  });
  expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  const corsServer = await serveHttp(makeApp(), { port: 0, cors: { origins: ['https://app.example'] } as never });
  const evil = await rawRequest(corsServer.url, {
    method: 'OPTIONS',
    headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
  });
  expect(evil.status).toBe(403);
  expect(evil.headers['access-control-allow-origin']).toBeUndefined();
  const good = await rawRequest(corsServer.url, {
    method: 'OPTIONS',
    headers: {
      Origin: 'https://app.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'mcp-param-region, content-type',
    },
  });
  expect(good.status).toBe(204);
  expect(good.headers['access-control-allow-origin']).toBe('https://app.example');
  expect(good.headers['access-control-allow-headers']).toContain('mcp-param-region');
  const post = await modernPost(corsServer.url, 2, 'server/discover', {}, { Origin: 'https://app.example' });
  expect(post.headers['access-control-allow-origin']).toBe('https://app.example');
  await corsServer.close({ deadlineMs: 500 });
});

test('F6: sessions beyond maxSessions get 503; idle ones are evicted', async () => {
  const small = await serveHttp(makeApp(), { port: 0, maxSessions: 5, sessionIdleTimeoutMs: 1000 });
  const clients = await Promise.all(Array.from({ length: 5 }, async () => {
    const c = new RawLegacyClient(small.url);
    expect((await c.initialize()).status).toBe(200);
    return c;
  }));
  const extra = new RawLegacyClient(small.url);
  expect((await extra.initialize()).status).toBe(503);
  await new Promise((r) => setTimeout(r, 1600));
  expect((await clients[0]!.call(1, 'tools/list')).status).toBe(404);
  expect((await extra.initialize()).status).toBe(200);
  await small.close({ deadlineMs: 500 });
});

test('F4: clients that all count ids from 0 get their own replies, notifications and asks', async () => {
  const N = 4;
  const CALLS = 60;
  const clients = await Promise.all(Array.from({ length: N }, async (_, n) => {
    const c = new RawLegacyClient(server.url);
    await c.initialize({ elicitation: {} });
    return { c, n };
  }));
  let misrouted = 0;
  await Promise.all(clients.flatMap(({ c, n }) =>
    Array.from({ length: CALLS }, async (_, i) => {
      const nonce = `client${n}-call${i}`;
      if (i % 3 === 0) {
        // An elicitation whose answer names this client: a misrouted ask would greet someone else.
        const r = await streamingRequest(
          server.url,
          {
            headers: c.headers(),
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: i,
              method: 'tools/call',
              params: { name: 'greet', arguments: { text: 'x' } },
            }),
          },
          (ev) => {
            if (ev.method === 'elicitation/create')
              void c.post({ jsonrpc: '2.0', id: ev.id, result: { action: 'accept', content: { name: nonce } } });
          },
        );
        if (r.events.pop()?.result?.content?.[0]?.text !== `Hello, ${nonce}!`) misrouted++;
      } else if (i % 3 === 1) {
        const r = await c.call(i, 'tools/call', {
          name: 'slow',
          arguments: { steps: 2, delayMs: 1 },
          _meta: { progressToken: nonce },
        });
        const ev = r.events();
        if (!ev.filter((e: any) => e.method).every((e: any) => e.params.progressToken === nonce)) misrouted++;
        if (replyOf(r)?.id !== i) misrouted++;
      } else {
        const r = await c.call(i, 'tools/call', { name: 'echo', arguments: { text: nonce } });
        if (r.json().result.content[0].text !== nonce || r.json().id !== i) misrouted++;
      }
    }),
  ));
  expect(misrouted).toBe(0);
  // Ensure plain JSON still flows afterwards.
  expect(
    (
      await rawRequest(server.url, {
        headers: { ...JSON_HEADERS },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    ).status,
  ).toBe(200);
});
