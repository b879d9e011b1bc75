/**
 * One private redis-server per test file, connections made through connectRedis, and the check
 * that every key a store wrote carries a TTL.
 */
import { randomUUID } from 'node:crypto';
import { connectRedis, type RedisConnectOptions, type RedisConnection } from '../../../src/redis';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server';

export interface RedisFixture {
  server(): RedisServer;
  /** A connection with a fresh key prefix (or the one given), closed after the file. */
  connect(options?: Partial<RedisConnectOptions>): Promise<RedisConnection>;
}

export function useRedisServer(): RedisFixture {
  let server: RedisServer | undefined;
  const open: RedisConnection[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await server?.dispose();
  });
  return {
    server: () => {
      if (!server) throw new Error('redis-server not started');
      return server;
    },
    connect: async (options = {}) => {
      if (!server) throw new Error('redis-server not started');
      const connection = await connectRedis({
        url: server.url,
        keyPrefix: `t${randomUUID().slice(0, 8)}:`,
        onError: () => {},
        ...options,
      });
      open.push(connection);
      return connection;
    },
  };
}

/** Every key under the connection's prefix, with its PTTL (-1: no TTL, -2: gone). */
export async function keysWithTtl(redis: RedisConnection): Promise<Map<string, number>> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.command<[string, string[]]>([
      'SCAN',
      cursor,
      'MATCH',
      `${redis.keyPrefix}*`,
      'COUNT',
      '1000',
    ]);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const ttls = new Map<string, number>();
  for (const key of keys) ttls.set(key, await redis.command<number>(['PTTL', key]));
  return ttls;
}

/** Asserts there is at least one key and every one expires. */
export async function expectEveryKeyExpires(redis: RedisConnection): Promise<void> {
  const ttls = await keysWithTtl(redis);
  expect(ttls.size).toBeGreaterThan(0);
  const withoutTtl = [...ttls].filter(([, ttl]) => ttl <= 0).map(([key]) => key);
  expect(withoutTtl).toEqual([]);
}
