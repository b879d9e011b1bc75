/**
 * A fleet-wide session pool that is full makes room (issue 39): two conformance-server instances
 * sharing Redis behind nginx, MAX_ANONYMOUS_SESSIONS=3 for the whole fleet. Walk-away runs through
 * the load balancer are all served; an evicted session's next request gets 404 on either instance;
 * ContextClient carries on after its session is evicted and after its instance restarts.
 * (The instance a newcomer lands on evicts its own least recently used idle session of the pool.)
 */
import { ContextClient } from '../../../src';
import { Fleet, post } from './fleet-harness';

jest.setTimeout(120_000);

const CAP = 3;
let fleet: Fleet;
beforeAll(async () => {
  fleet = await Fleet.up({
    FLEET_INSTANCES: '2',
    MAX_ANONYMOUS_SESSIONS: String(CAP),
    SESSION_EVICTION_MIN_IDLE_MS: '0',
  });
}, 120_000);
afterAll(() => fleet?.down(), 60_000);

const V = { 'MCP-Protocol-Version': '2025-11-25' };
let nextId = 1;

/** Initialize, one call, walk away (no DELETE); returns the session id. */
async function walkAway(url: string): Promise<string> {
  const init = await post(
    url,
    {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cli', version: '1' } },
    },
    V,
  );
  expect(init.status).toBe(200);
  const sessionId = String(init.headers['mcp-session-id']);
  const headers = { ...V, 'Mcp-Session-Id': sessionId };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  const called = await post(
    url,
    { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'test_simple_text', arguments: {} } },
    headers,
  );
  expect(called.status).toBe(200);
  expect(called.message.result.content[0].type).toBe('text');
  return sessionId;
}

async function ping(url: string, sessionId: string): Promise<number> {
  return (await post(url, { jsonrpc: '2.0', id: nextId++, method: 'ping' }, { ...V, 'Mcp-Session-Id': sessionId }))
    .status;
}

test('3 × the fleet-wide cap of walk-away runs through nginx: all served; evicted sessions are 404 on either instance', async () => {
  const ids: string[] = [];
  for (let n = 0; n < 3 * CAP; n++) ids.push(await walkAway(fleet.url));
  expect(new Set(ids.map((id) => id.split('.')[0])).size).toBe(2); // both instances took sessions
  const viaLb = [];
  for (const id of ids) viaLb.push(await ping(fleet.url, id));
  expect(viaLb.filter((s) => s === 200)).toHaveLength(CAP);
  expect(viaLb.filter((s) => s === 404)).toHaveLength(2 * CAP);
  for (const [i, id] of ids.entries()) {
    if (viaLb[i] !== 404) continue;
    expect(await ping(fleet.instanceUrl(1), id)).toBe(404);
    expect(await ping(fleet.instanceUrl(2), id)).toBe(404);
  }
});

test('ContextClient through nginx carries on after its session is evicted, and after its instance restarts', async () => {
  const calls: Array<{ status: number; session: string | null }> = [];
  // No GET stream (405, as a proxy without SSE would answer): a client holding one is in use, never evicted.
  const noGetStream = (async (input: string | URL | Request, init?: RequestInit) => {
    if ((init?.method ?? 'GET') === 'GET') return new Response(null, { status: 405 });
    const res = await fetch(input, init);
    if (String(init?.body).includes('"tools/call"'))
      calls.push({ status: res.status, session: new Headers(init?.headers).get('mcp-session-id') });
    return res;
  }) as typeof fetch;
  const client = await ContextClient.connect({ url: fleet.url, fetch: noGetStream }, { protocolVersion: '2025-11-25' });
  const simple = async () => (await client.callTool('test_simple_text')).content[0]?.type;
  try {
    expect(await simple()).toBe('text');
    // Newcomers fill the fleet's pool; each instance evicts its own least recently used sessions.
    for (let n = 0; n < 3 * CAP; n++) await walkAway(fleet.url);
    expect(await simple()).toBe('text');
    expect(calls.map((c) => c.status)).toEqual([200, 404, 200]);

    // Its instance restarts (SIGTERM, as a rolling deploy does): the session is gone with it.
    const tag = calls.at(-1)!.session!.split('.')[0]!;
    const n = tag.slice(1);
    await fleet.script('stop', n);
    await fleet.script('start', n);
    expect(await simple()).toBe('text');
    expect(calls.slice(3).map((c) => c.status)).toEqual([404, 200]);
  } finally {
    await client.close();
  }
});
