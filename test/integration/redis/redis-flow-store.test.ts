/** RedisFlowStore against a real redis-server: the shared contract, TTLs, two instances as one fleet. */
import { RedisFlowStore } from '../../../src/redis';
import type { RedisConnection } from '../../../src/redis';
import { flowStoreContract } from '../../helpers/contracts/flow-store';
import { expectEveryKeyExpires, useRedisServer } from './fixture';

const redis = useRedisServer();
let connection: RedisConnection;
let store: RedisFlowStore;
beforeAll(async () => {
  connection = await redis.connect();
  store = new RedisFlowStore(connection);
});

describe('the FlowStore contract', () => flowStoreContract(() => store));

test('after the contract run, every key it wrote has a TTL', async () => {
  await expectEveryKeyExpires(connection);
});

test('a key expires at the latest expiry given (PEXPIREAT), never earlier', async () => {
  const conn = await redis.connect();
  const fleet = new RedisFlowStore(conn);
  const at = Date.now() + 60_000;
  await fleet.claim('ttl', 'a', at, 60_000);
  await fleet.recordOnce('ttl', 'a', 'k', { value: 1 }, at + 30_000);
  await fleet.claim('ttl', 'a', at, 60_000); // an earlier expiry does not shorten it
  const ttl = await conn.command<number>(['PTTL', conn.key('flow', 'ttl')]);
  expect(ttl).toBeGreaterThan(60_000);
  expect(ttl).toBeLessThanOrEqual(90_000);
  await fleet.complete('ttl', 'a', 'r', at);
  await fleet.claim('other', 'b', at, 60_000);
  await expectEveryKeyExpires(conn);
});

test('two store instances on one Redis are one fleet: a claim on one is busy on the other; completion is shared', async () => {
  const prefix = `fleet${Date.now()}:`;
  const a = new RedisFlowStore(await redis.connect({ keyPrefix: prefix }));
  const b = new RedisFlowStore(await redis.connect({ keyPrefix: prefix }));
  const at = Date.now() + 60_000;
  const both = await Promise.all([a.claim('f', 'ha', at, 60_000), b.claim('f', 'hb', at, 60_000)]);
  expect(both.map((c) => c.kind).sort()).toEqual(['busy', 'claimed']);
  const [winner, holder] = both[0]?.kind === 'claimed' ? [a, 'ha'] : [b, 'hb'];
  const other = winner === a ? b : a;
  await winner.recordOnce('f', holder, 'charge', { value: 'TD-1' }, at);
  await winner.release('f', holder);
  expect(await other.claim('f', 'hc', at, 60_000)).toEqual({ kind: 'claimed', onces: { charge: { value: 'TD-1' } } });
  await other.complete('f', 'hc', { ok: true }, at);
  expect(await winner.claim('f', 'hd', at, 60_000)).toEqual({ kind: 'completed', result: { ok: true } });
});

test('a flow is forgotten at its expiry', async () => {
  const conn = await redis.connect();
  const s = new RedisFlowStore(conn);
  await s.claim('short', 'a', Date.now() + 60_000, 60_000);
  await s.complete('short', 'a', 'r', Date.now() + 60_000);
  // Move the key's expiry into the past the way time would.
  await conn.command(['PEXPIREAT', conn.key('flow', 'short'), String(Date.now() - 1)]);
  expect(await s.claim('short', 'b', Date.now() + 60_000, 60_000)).toEqual({ kind: 'claimed', onces: {} });
});
