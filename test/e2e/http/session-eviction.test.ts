/**
 * Full session pools make room from their idlest sessions (issue 39). The Inspector-CLI pattern —
 * open a session, make one call, walk away without DELETE — run three times the anonymous cap with
 * the official v1 client and with raw HTTP: every run is served, the pool never holds more than its
 * cap, and a session that is mid-ask is never the one evicted. Sessions in use (too recently, or
 * with a call in flight) are never taken: then the newcomer gets 429 + Retry-After and -32004.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ContextServerModule, McpApplication } from '../../../src';
import { ErrorCode } from '../../../src/protocol/error-codes';
import { serveHttp, type HttpOptions, type HttpServerHandle } from '../../../src/transports/http';
import {
  JSON_HEADERS,
  probe,
  RawLegacyClient,
  replyOf,
  streamingRequest,
  TestTools,
  trackProcessFaults,
  waitFor,
} from '../../helpers/http-fixtures';

jest.setTimeout(60_000);

const faults = trackProcessFaults();
afterAll(() => {
  faults.stop();
  expect(faults.faults).toEqual([]);
});

interface Logged {
  message: string;
  detail?: Record<string, unknown>;
}

async function serve(http: Partial<HttpOptions>): Promise<{ server: HttpServerHandle; warnings: Logged[] }> {
  const warnings: Logged[] = [];
  const logger = {
    warn: (message: string, detail?: Record<string, unknown>) => warnings.push({ message, detail }),
    error: (message: string, detail?: Record<string, unknown>) => warnings.push({ message, detail }),
  };
  const app = McpApplication.create({
    name: 'eviction',
    version: '1.0.0',
    providers: [TestTools],
    modules: [ContextServerModule.configure({ logger })],
  });
  return { server: await serveHttp(app, { port: 0, ...http }), warnings };
}

const evictions = (warnings: Logged[]) => warnings.filter((w) => w.message.includes('evicted to make room'));
const text = (r: unknown) => (r as { content: Array<{ text?: string }> }).content[0]?.text;

/** The Inspector CLI's run: initialize, one call, gone (no DELETE). Returns the session id it had. */
async function officialRun(url: string, n: number): Promise<string> {
  const client = new LegacyClient({ name: 'inspector-cli', version: '1.0.0' });
  const transport = new LegacyTransport(new URL(url));
  await client.connect(transport);
  const id = transport.sessionId!;
  expect(text(await client.callTool({ name: 'echo', arguments: { text: `run ${n}` } }))).toBe(`run ${n}`);
  await client.close(); // aborts its streams; the v1 client sends DELETE only from terminateSession()
  return id;
}

async function rawRun(url: string, n: number): Promise<RawLegacyClient> {
  const c = new RawLegacyClient(url);
  expect((await c.initialize()).status).toBe(200);
  const r = await c.call(1, 'tools/call', { name: 'echo', arguments: { text: `raw ${n}` } });
  expect(replyOf(r).result.content[0].text).toBe(`raw ${n}`);
  return c;
}

const ping = async (url: string, sessionId: string) => {
  const c = new RawLegacyClient(url);
  c.sessionId = sessionId;
  return (await c.call('p', 'ping')).status;
};

describe('a full anonymous pool evicts its least recently used idle session', () => {
  const CAP = 4;
  let server: HttpServerHandle;
  let warnings: Logged[];
  beforeEach(async () => {
    ({ server, warnings } = await serve({ maxAnonymousSessions: CAP, sessionEvictionMinIdleMs: 0 }));
  });
  afterEach(() => server.close({ deadlineMs: 2000 }));

  test('the official v1 client, 3 × the cap of open-call-walk-away runs: every run served, only the cap kept', async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 3 * CAP; n++) ids.push(await officialRun(server.url, n));
    // Exactly one eviction per run past the cap, each logged once with its pool, age and idle time.
    const logged = evictions(warnings);
    expect(logged).toHaveLength(2 * CAP);
    for (const e of logged) {
      expect(e.detail).toMatchObject({ pool: 'anonymous' });
      expect(typeof e.detail?.ageSeconds).toBe('number');
      expect(typeof e.detail?.idleSeconds).toBe('number');
    }
    // The pool holds the cap, the most recent runs: the evicted ones answer 404, as the spec says.
    const statuses = [];
    for (const id of ids) statuses.push(await ping(server.url, id));
    expect(statuses).toEqual([...Array(2 * CAP).fill(404), ...Array(CAP).fill(200)]);
  });

  test('raw HTTP, 3 × the cap: every run served; a session mid-ask is never the one evicted and its ask completes', async () => {
    const asker = new RawLegacyClient(server.url);
    await asker.initialize({ elicitation: {} });
    let ask: { id: string } | undefined;
    const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'greet', arguments: { text: 'x' } } };
    const held = streamingRequest(
      server.url,
      { headers: { ...JSON_HEADERS, ...asker.headers() }, body: JSON.stringify(body) },
      (e) => {
        if (e.method === 'elicitation/create') ask = e;
      },
    );
    await waitFor(() => ask !== undefined);
    // The asker is the least recently used session; every newcomer must pass it by.
    const runs: RawLegacyClient[] = [];
    for (let n = 1; n <= 3 * CAP; n++) runs.push(await rawRun(server.url, n));
    expect(evictions(warnings)).toHaveLength(3 * CAP - (CAP - 1));
    expect(await ping(server.url, asker.sessionId!)).toBe(200);

    await asker.post({ jsonrpc: '2.0', id: ask!.id, result: { action: 'accept', content: { name: 'Ada' } } });
    const done = await held;
    expect(done.events.find((e) => e.id === 7).result.content[0].text).toBe('Hello, Ada!');
    expect(await ping(server.url, runs.at(-1)!.sessionId!)).toBe(200);
    expect(await ping(server.url, runs[0]!.sessionId!)).toBe(404);
  });
});

describe('nothing old enough to evict: the newcomer is refused with 429, Retry-After and -32004', () => {
  test('sessions used within sessionEvictionMinIdleMs are never taken', async () => {
    const { server, warnings } = await serve({ maxAnonymousSessions: 2, sessionEvictionMinIdleMs: 60_000 });
    try {
      const first = await rawRun(server.url, 1);
      await rawRun(server.url, 2);
      const over = new RawLegacyClient(server.url);
      const r = await over.initialize();
      expect(r.status).toBe(429);
      const seconds = Number(r.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(60);
      const error = r.json().error;
      expect(error.code).toBe(ErrorCode.TooManySessions);
      expect(error.code).not.toBe(ErrorCode.InternalError);
      expect(error.message).toContain('maxAnonymousSessions');
      expect(error.data).toMatchObject({ reason: 'too_many_sessions', pool: 'anonymous', retryAfterSeconds: seconds });
      expect(r.headers['mcp-session-id']).toBeUndefined();
      expect(evictions(warnings)).toEqual([]);
      // The sessions it has are still served.
      const again = await first.call(2, 'tools/call', { name: 'echo', arguments: { text: 'still here' } });
      expect(replyOf(again).result.content[0].text).toBe('still here');
    } finally {
      await server.close({ deadlineMs: 2000 });
    }
  });

  test('default options: an attacker keeping 1000 sessions busy gets newcomers refused, and its sessions served', async () => {
    const { server, warnings } = await serve({});
    const attacker: RawLegacyClient[] = [];
    const busy: Array<Promise<unknown>> = [];
    const before = probe.started;
    try {
      // 1000 sessions (the default maxAnonymousSessions), each with a call in flight.
      for (let batch = 0; batch < 10; batch++) {
        await Promise.all(
          Array.from({ length: 100 }, async () => {
            const c = new RawLegacyClient(server.url);
            expect((await c.initialize()).status).toBe(200);
            attacker.push(c);
            const params = { name: 'hang', arguments: { text: '' } };
            const hang = { jsonrpc: '2.0', id: 1, method: 'tools/call', params };
            busy.push(
              streamingRequest(
                server.url,
                { headers: { ...JSON_HEADERS, ...c.headers() }, body: JSON.stringify(hang) },
                () => undefined,
              ).catch(() => undefined),
            );
          }),
        );
      }
      await waitFor(() => probe.started - before === 1000, 30_000);
      for (let i = 0; i < 3; i++) {
        const r = await new RawLegacyClient(server.url).initialize();
        expect(r.status).toBe(429);
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
        expect(r.json().error.code).toBe(ErrorCode.TooManySessions);
      }
      expect(evictions(warnings)).toEqual([]);
      const pinged = await attacker[500]!.call(2, 'ping');
      expect(pinged.status).toBe(200);
    } finally {
      await server.close({ deadlineMs: 1000 });
      await Promise.all(busy);
    }
  });
});
