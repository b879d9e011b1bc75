/**
 * Redis stops: a store's call fails with a clear error (never hangs, never crashes the process);
 * Redis comes back: the same connection works again. Also a Redis that is not there at start-up.
 */
import {
  connectRedis,
  RedisEventStore,
  RedisFlowStore,
  RedisLeaseCounter,
  RedisNotificationBus,
  RedisSingleUseStore,
  RedisTokenBucket,
  RedisUnavailableError,
} from '../../../src/redis';
import { useRedisServer } from './fixture';

const redis = useRedisServer();

test('stopped: the call fails with "Redis at host:port is unreachable"; restarted: it works again', async () => {
  const errors: Error[] = [];
  const connection = await redis.connect({ commandTimeoutMs: 300, onError: (e) => errors.push(e) });
  const store = new RedisFlowStore(connection);
  const later = Date.now() + 60_000;
  expect(await store.claim('before', 'a', later, 60_000)).toEqual({ kind: 'claimed', onces: {} });

  await redis.server().stop();
  const failure = await store.claim('during', 'a', later, 60_000).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(RedisUnavailableError);
  expect((failure as Error).message).toBe(`Redis at 127.0.0.1:${redis.server().port} is unreachable (no reply within 300 ms)`);
  expect(errors.length).toBeGreaterThan(0);
  expect(errors[0]?.message).toMatch(`Redis at 127.0.0.1:${redis.server().port} is unreachable`);

  await redis.server().start();
  // The client reconnects on its own (bounded backoff); the data is gone with the old process.
  await eventually(() => store.claim('after', 'a', later, 60_000));
  expect(await store.claim('after', 'b', later, 60_000)).toEqual({ kind: 'busy' });
});

test('stopped: every store fails the same clear way, and the process keeps running', async () => {
  const connection = await redis.connect({ commandTimeoutMs: 200 });
  const bus = new RedisNotificationBus(connection);
  const stopListening = await bus.subscribe(() => {});
  await redis.server().stop();
  try {
    const later = Date.now() + 60_000;
    const calls: Array<Promise<unknown>> = [
      new RedisFlowStore(connection).claim('f', 'a', later, 60_000),
      new RedisSingleUseStore(connection).claim('t', later),
      new RedisLeaseCounter(connection).acquire('b', 1, 1_000),
      new RedisTokenBucket(connection).take('k', { capacity: 1, refillPerSecond: 1 }),
      new RedisEventStore(connection).append('s', null),
      new RedisEventStore(connection).eventsAfter('s_1-0'),
      bus.publish({ type: 'listChanged', list: 'tools', instanceId: 'A' }),
    ];
    const outcomes = await Promise.allSettled(calls);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const reason = outcome.status === 'rejected' ? (outcome.reason as unknown) : undefined;
      expect(reason).toBeInstanceOf(RedisUnavailableError);
      expect((reason as Error).message).toMatch(`Redis at 127.0.0.1:${redis.server().port} is unreachable`);
    }
  } finally {
    await redis.server().start();
  }
  await stopListening();
});

test('a Redis that is not there at start-up: connectRedis rejects clearly within connectTimeoutMs', async () => {
  const port = redis.server().port;
  await redis.server().stop();
  try {
    const failure = await connectRedis({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 300, onError: () => {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RedisUnavailableError);
    expect((failure as Error).message).toMatch(new RegExp(`^Redis at 127\\.0\\.0\\.1:${port} is unreachable`));
  } finally {
    await redis.server().start();
  }
});

async function eventually<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (e) {
      if (i >= 100) throw e;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
