/**
 * LeaseCounter on Redis: a sorted set per bucket (`<prefix>lease:<bucket>`), lease ids scored by
 * expiry in Redis's clock (TIME), so every instance counts the same live leases. Acquire is one
 * Lua script: purge lapsed, count, add. The key expires with its last lease (PEXPIREAT).
 */
import { randomUUID } from 'node:crypto';
import type { Lease, LeaseCounter } from '../state/lease-counter';
import { luaScript, type RedisConnection } from './connection';

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function expire_with_last(k)
  local last = redis.call('ZRANGE', k, -1, -1, 'WITHSCORES')
  if #last == 2 then redis.call('PEXPIREAT', k, last[2]) end
end
`;

/** KEYS[1] bucket; ARGV limit, ttlMs, id → 1 acquired, 0 full. */
const ACQUIRE = luaScript(`${NOW}
local k = KEYS[1]
redis.call('ZREMRANGEBYSCORE', k, '-inf', now)
if redis.call('ZCARD', k) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', k, now + tonumber(ARGV[2]), ARGV[3])
expire_with_last(k)
return 1
`);

/** KEYS[1] bucket; ARGV id, ttlMs → 1 renewed, 0 lapsed. */
const RENEW = luaScript(`${NOW}
local k = KEYS[1]
local until_ms = redis.call('ZSCORE', k, ARGV[1])
if not until_ms or tonumber(until_ms) <= now then
  redis.call('ZREM', k, ARGV[1])
  return 0
end
redis.call('ZADD', k, 'XX', now + tonumber(ARGV[2]), ARGV[1])
expire_with_last(k)
return 1
`);

export class RedisLeaseCounter implements LeaseCounter {
  constructor(private readonly redis: RedisConnection) {}

  async acquire(bucket: string, limit: number, ttlMs: number): Promise<Lease | undefined> {
    const id = randomUUID();
    const ok = await this.redis.script(ACQUIRE, [this.key(bucket)], [String(limit), String(Math.ceil(ttlMs)), id]);
    return ok === 1 ? { bucket, id } : undefined;
  }

  async renew(lease: Lease, ttlMs: number): Promise<boolean> {
    return (await this.redis.script(RENEW, [this.key(lease.bucket)], [lease.id, String(Math.ceil(ttlMs))])) === 1;
  }

  async release(lease: Lease): Promise<void> {
    await this.redis.command(['ZREM', this.key(lease.bucket), lease.id]);
  }

  private key(bucket: string): string {
    return this.redis.key('lease', bucket);
  }
}
