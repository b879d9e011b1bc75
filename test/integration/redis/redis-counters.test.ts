/**
 * RedisSingleUseStore, RedisLeaseCounter and RedisTokenBucket against a real redis-server: the same
 * contracts as the memory stores, two instances as one fleet, and a TTL on every key they write.
 */
import { RedisLeaseCounter, RedisSingleUseStore, RedisTokenBucket, type RedisConnection } from '../../../src/redis';
import { leaseCounterContract } from '../../helpers/contracts/lease-counter';
import { singleUseStoreContract } from '../../helpers/contracts/single-use-store';
import { tokenBucketContract } from '../../helpers/contracts/token-bucket';
import { expectEveryKeyExpires, useRedisServer } from './fixture';

const redis = useRedisServer();
let connection: RedisConnection;
beforeAll(async () => {
  connection = await redis.connect();
});

describe('RedisSingleUseStore', () => {
  singleUseStoreContract(() => new RedisSingleUseStore(connection));

  test('two instances: a token redeemed on one is used on the other', async () => {
    const prefix = `su${Date.now()}:`;
    const a = new RedisSingleUseStore(await redis.connect({ keyPrefix: prefix }));
    const b = new RedisSingleUseStore(await redis.connect({ keyPrefix: prefix }));
    const results = await Promise.all([a.claim('tok', Date.now() + 60_000), b.claim('tok', Date.now() + 60_000)]);
    expect(results.sort()).toEqual([false, true]);
  });
});

describe('RedisLeaseCounter', () => {
  leaseCounterContract(() => new RedisLeaseCounter(connection));

  test('two instances share one limit', async () => {
    const prefix = `lc${Date.now()}:`;
    const a = new RedisLeaseCounter(await redis.connect({ keyPrefix: prefix }));
    const b = new RedisLeaseCounter(await redis.connect({ keyPrefix: prefix }));
    const leases = await Promise.all([0, 1, 2, 3].map((i) => (i % 2 ? a : b).acquire('sessions', 3, 60_000)));
    expect(leases.filter(Boolean)).toHaveLength(3);
    const held = leases.find(Boolean);
    await (held ? a.release(held) : Promise.resolve());
    expect(await b.acquire('sessions', 3, 60_000)).toBeDefined();
  });
});

describe('RedisTokenBucket', () => {
  tokenBucketContract(() => new RedisTokenBucket(connection));

  test('two instances take from one bucket', async () => {
    const prefix = `tb${Date.now()}:`;
    const a = new RedisTokenBucket(await redis.connect({ keyPrefix: prefix }));
    const b = new RedisTokenBucket(await redis.connect({ keyPrefix: prefix }));
    const rule = { capacity: 4, refillPerSecond: 0.001 };
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).take('client-1', rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(4);
  });
});

test('every key the three stores wrote has a TTL', async () => {
  await expectEveryKeyExpires(connection);
});
