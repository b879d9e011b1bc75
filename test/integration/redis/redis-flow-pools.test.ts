/**
 * The Redis flow store's pools against a real redis-server (issue 31, N5 fleet-wide): a share per
 * principal in unfinished flows and bytes, a ceiling in all, the oldest completed records let go
 * first under pressure and a retry of one refused as expired (never run again), decided inside the
 * claim's script so two instances cannot both take the last slot; and what Redis really holds.
 */
import type { FlowStoreLimits } from '../../../src/state/memory-flow-store';
import { RedisFlowStore, type RedisConnection } from '../../../src/redis';
import { expectEveryKeyExpires, useRedisServer } from './fixture';

const redis = useRedisServer();
const MINUTE = 60_000;

async function storeWith(limits: Partial<FlowStoreLimits>): Promise<{ s: RedisFlowStore; conn: RedisConnection }> {
  const conn = await redis.connect();
  return { s: new RedisFlowStore(conn, limits), conn };
}

/** A two-round flow as the engine runs it: registered at round 1, completed at round 2 (started at `t`). */
async function twoRounds(s: RedisFlowStore, id: string, owner: string | undefined, t: number, result: unknown = 'ok') {
  expect(await s.claim(id, 'h1', Date.now() + MINUTE, MINUTE, owner)).toEqual({ kind: 'claimed', onces: {} });
  await s.release(id, 'h1');
  expect((await s.claim(id, 'h2', Date.now() + MINUTE, MINUTE, owner, t)).kind).toBe('claimed');
  await s.complete(id, 'h2', result, Date.now() + MINUTE);
}

async function counted(conn: RedisConnection): Promise<{ n: number; b: number }> {
  const [n, b] = await conn.command<string[]>(['HMGET', `${conn.keyPrefix}flows`, 'n', 'b']);
  return { n: Number(n ?? 0), b: Number(b ?? 0) };
}

test('one principal filling its share of unfinished flows is refused; another is not; finishing one frees it', async () => {
  const { s, conn } = await storeWith({ maxFlows: 100, maxFlowsPerPrincipal: 3 });
  const at = Date.now() + MINUTE;
  for (let i = 0; i < 3; i++) expect((await s.claim(`m${i}`, 'h', at, MINUTE, 'mallory')).kind).toBe('claimed');
  expect(await s.claim('m3', 'h', at, MINUTE, 'mallory')).toEqual({ kind: 'full', scope: 'principal' });
  expect((await s.claim('a0', 'h', at, MINUTE, 'ada')).kind).toBe('claimed');
  // Anonymous callers share one pool of their own.
  for (let i = 0; i < 3; i++) expect((await s.claim(`x${i}`, 'h', at, MINUTE)).kind).toBe('claimed');
  expect(await s.claim('x3', 'h', at, MINUTE)).toEqual({ kind: 'full', scope: 'principal' });
  await s.complete('m0', 'h', 'done', at);
  expect((await s.claim('m3', 'h', at, MINUTE, 'mallory')).kind).toBe('claimed');
  expect((await counted(conn)).n).toBe(8);
  await expectEveryKeyExpires(conn);
});

test('two instances racing for the last slots of a share: exactly the share is granted', async () => {
  const conn = await redis.connect();
  const limits = { maxFlowsPerPrincipal: 5 };
  const a = new RedisFlowStore(conn, limits);
  const b = new RedisFlowStore(await redis.connect({ keyPrefix: conn.keyPrefix }), limits);
  const at = Date.now() + MINUTE;
  const claims = await Promise.all(
    Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).claim(`r${i}`, 'h', at, MINUTE, 'mallory')),
  );
  expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(5);
  expect(claims.filter((c) => c.kind === 'full')).toHaveLength(35);
});

test('under pressure the oldest completion records go; a retry of one is expired, of a kept one completed', async () => {
  const { s, conn } = await storeWith({ maxFlows: 3 });
  const started: number[] = [];
  for (let i = 0; i < 5; i++) {
    started.push(Date.now() - 1000 + i);
    await twoRounds(s, `f${i}`, 'ada', started[i]!, `result-${i}`);
  }
  expect((await counted(conn)).n).toBe(3);
  // f0 and f1 were let go: their retries are refused, never claimed (that would run them again).
  expect(await s.claim('f0', 'r', Date.now() + MINUTE, MINUTE, 'ada', started[0])).toEqual({ kind: 'expired' });
  expect(await s.claim('f1', 'r', Date.now() + MINUTE, MINUTE, 'ada', started[1])).toEqual({ kind: 'expired' });
  expect(await s.claim('f4', 'r', Date.now() + MINUTE, MINUTE, 'ada', started[4])).toEqual({
    kind: 'completed',
    result: 'result-4',
  });
  // A flow that started after everything let go, and is not here, was never here: it goes on.
  expect((await s.claim('elsewhere', 'r', Date.now() + MINUTE, MINUTE, 'ada', Date.now())).kind).toBe('claimed');
});

test('the ceiling in all: unfinished flows of many principals fill it, then every new flow is refused (server)', async () => {
  const { s } = await storeWith({ maxFlows: 4, maxFlowsPerPrincipal: 3 });
  const at = Date.now() + MINUTE;
  for (const owner of ['p1', 'p2', 'p3', 'p4']) {
    expect((await s.claim(`${owner}-f`, 'h', at, MINUTE, owner)).kind).toBe('claimed');
  }
  expect(await s.claim('p5-f', 'h', at, MINUTE, 'p5')).toEqual({ kind: 'full', scope: 'server' });
  // Nothing live was forgotten to make room.
  await s.release('p1-f', 'h');
  expect(await s.claim('p1-f', 'h2', at, MINUTE, 'p1')).toEqual({ kind: 'claimed', onces: {} });
});

test('bytes: a principal over its byte share loses its own oldest completion records, not another principal', async () => {
  const { s, conn } = await storeWith({ maxBytesPerPrincipal: 100_000, maxBytes: 10_000_000 });
  const t0 = Date.now() - 1000;
  await twoRounds(s, 'ada-1', 'ada', t0, 'small');
  for (let i = 0; i < 10; i++) await twoRounds(s, `big-${i}`, 'mallory', t0 + 1 + i, 'x'.repeat(30_000));
  expect((await counted(conn)).b).toBeLessThan(100_000 + 2_000);
  expect(await s.claim('ada-1', 'r', Date.now() + MINUTE, MINUTE, 'ada', t0)).toEqual({
    kind: 'completed',
    result: 'small',
  });
  expect(await s.claim('big-0', 'r', Date.now() + MINUTE, MINUTE, 'mallory', t0 + 1)).toEqual({ kind: 'expired' });
  expect(await s.claim('big-9', 'r', Date.now() + MINUTE, MINUTE, 'mallory', t0 + 10)).toMatchObject({
    kind: 'completed',
  });
});

test('once-results count while live and go at completion; an expired record gives its count and bytes back', async () => {
  const { s, conn } = await storeWith({});
  await s.claim('f', 'h', Date.now() + MINUTE, MINUTE, 'ada');
  const empty = (await counted(conn)).b;
  await s.recordOnce('f', 'h', 'charge', { value: 'y'.repeat(5_000) }, Date.now() + MINUTE);
  expect((await counted(conn)).b).toBeGreaterThan(empty + 5_000);
  await s.complete('f', 'h', 'done', Date.now() + MINUTE);
  expect((await counted(conn)).b).toBeLessThan(empty + 100);
  expect(await conn.command(['HKEYS', conn.key('flow', 'f')])).not.toContain('o:charge');
  // A record whose expiry passes is let go by the next new flow's claim. The count keeps it to the end
  // of its expiry's 10-second step: move that into the past the way time would.
  await s.claim('short', 'h', Date.now() + 30, MINUTE, 'ada');
  while ((await conn.command<number>(['EXISTS', conn.key('flow', 'short')])) === 1) {
    await new Promise((r) => setTimeout(r, 10));
  }
  expect((await counted(conn)).n).toBe(2);
  await conn.command(['ZADD', `${conn.keyPrefix}flows:expiry`, String(Date.now() - 1), 'short']);
  await s.claim('next', 'h', Date.now() + MINUTE, MINUTE, 'ada');
  expect(await counted(conn)).toEqual({ n: 2, b: expect.any(Number) });
  expect(await conn.command(['ZSCORE', `${conn.keyPrefix}flows:expiry`, 'short'])).toBeNull();
});

test('a flood of two-round flows far past maxFlows never fills the store; what Redis holds stays bounded', async () => {
  const { s, conn } = await storeWith({ maxFlows: 200 });
  const refused: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    const owner = i % 2 ? 'ada' : undefined;
    const t = Date.now();
    const first = await s.claim(`f${i}`, 'h1', t + MINUTE, MINUTE, owner);
    if (first.kind !== 'claimed') refused.push(first.kind);
    await s.release(`f${i}`, 'h1');
    const second = await s.claim(`f${i}`, 'h2', t + MINUTE, MINUTE, owner, t);
    if (second.kind !== 'claimed') refused.push(second.kind);
    else await s.complete(`f${i}`, 'h2', 'ok', t + MINUTE);
  }
  expect(refused).toEqual([]);
  expect((await counted(conn)).n).toBe(200);
  const flowKeys = await conn.command<string[]>(['KEYS', `${conn.keyPrefix}flow:*`]);
  expect(flowKeys).toHaveLength(200);
  await expectEveryKeyExpires(conn);
});

test("at one principal's byte share, Redis's own memory grows by about the share, and another principal is served", async () => {
  const share = 4 * 1024 * 1024;
  const { s, conn } = await storeWith({ maxBytesPerPrincipal: share, maxBytes: 64 * 1024 * 1024 });
  const usedMemory = async () => {
    const info = await conn.command<string>(['INFO', 'memory']);
    return Number(/used_memory:(\d+)/.exec(info)![1]);
  };
  const before = await usedMemory();
  // 16 MiB of results from one principal: four times its share.
  const result = 'z'.repeat(64 * 1024);
  for (let i = 0; i < 256; i++) await twoRounds(s, `big-${i}`, 'mallory', Date.now(), result);
  // And many small flows, so the per-record cost is measured too.
  for (let i = 0; i < 1_000; i++) await twoRounds(s, `small-${i}`, 'mallory', Date.now(), 'ok');
  const grew = (await usedMemory()) - before;
  expect((await counted(conn)).b).toBeLessThanOrEqual(share);
  expect(grew).toBeLessThan(share * 1.3);
  await twoRounds(s, 'ada-1', 'ada', Date.now(), 'served');
  expect(await s.claim('ada-1', 'r', Date.now() + MINUTE, MINUTE, 'ada', 0)).toEqual({
    kind: 'completed',
    result: 'served',
  });
  console.log(`Redis used_memory grew ${(grew / 1024 / 1024).toFixed(1)} MiB at a ${share / 1024 / 1024} MiB share`);
});
