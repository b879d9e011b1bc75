/**
 * Issue 16: RateLimit over RedisModule's token buckets on a real redis-server: two app instances
 * share one bucket per principal and tool, so the limit holds across the fleet; the keys expire.
 */
import { ContextServerModule, McpApplication, MemoryClient, RateLimit, Tool, UseGuards } from '../../../src';
import { RedisModule } from '../../../src/redis';
import { silentLogger } from '../../../src/server/core/server-logger';
import { useRedisServer } from './fixture';

const redis = useRedisServer();

class Limited {
  @Tool({ description: 'two per minute per caller, fleet-wide' })
  @UseGuards(RateLimit({ capacity: 2, refillPerSecond: 1 / 60 }))
  ping() {
    return 'pong';
  }
}

function instance(url: string, keyPrefix: string): McpApplication {
  return McpApplication.create({
    name: 'redis-rate-limit',
    version: '1.0.0',
    providers: [Limited],
    modules: [
      ContextServerModule.configure({ logger: silentLogger }),
      RedisModule.configure({ url, keyPrefix, connectTimeoutMs: 1000, commandTimeoutMs: 500 }),
    ],
  });
}

test('two instances share the bucket; another caller has its own; every key expires', async () => {
  const prefix = `rl${Date.now()}:`;
  const [a, b] = [instance(redis.server().url, prefix), instance(redis.server().url, prefix)];
  try {
    const onA = await MemoryClient.connect(a, { era: 'modern', principal: { id: 'alice' } });
    const onB = await MemoryClient.connect(b, { era: 'legacy', principal: { id: 'alice' } });
    expect(await onA.request('tools/call', { name: 'ping' })).toMatchObject({ content: [{ text: 'pong' }] });
    expect(await onB.request('tools/call', { name: 'ping' })).toMatchObject({ content: [{ text: 'pong' }] });
    const refused = await onA.raw('tools/call', { name: 'ping' });
    expect(refused).toMatchObject({
      error: { code: -32000, data: { reason: 'rate_limited', retryAfterSeconds: expect.any(Number) } },
    });
    expect((refused as { error: { data: { retryAfterMs: number } } }).error.data.retryAfterMs).toBeGreaterThan(0);
    expect(await onB.raw('tools/call', { name: 'ping' })).toMatchObject({ error: { code: -32000 } });
    const bob = await MemoryClient.connect(b, { era: 'modern', principal: { id: 'bob' } });
    expect(await bob.request('tools/call', { name: 'ping' })).toMatchObject({ content: [{ text: 'pong' }] });

    const check = await redis.connect({ keyPrefix: prefix });
    const keys = (await check.command<string[]>(['KEYS', `${prefix}tb:*`])) ?? [];
    expect(keys.length).toBe(2);
    for (const key of keys) expect(await check.command<number>(['PTTL', key])).toBeGreaterThan(0);
  } finally {
    await a.close();
    await b.close();
  }
});
