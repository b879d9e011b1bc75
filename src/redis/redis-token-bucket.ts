/**
 * TokenBucketStore on Redis: a hash per key (`<prefix>tb:<key>`: tokens `t`, time `at`), refilled
 * and taken in one Lua script in Redis's clock (TIME), so the fleet shares one bucket. The key
 * expires when the bucket would be full again (PEXPIREAT): a full bucket and no key are the same.
 */
import {
  checkedRule,
  type TokenBucketResult,
  type TokenBucketRule,
  type TokenBucketStore,
} from '../state/token-bucket';
import { luaScript, type RedisConnection, type RedisReply } from './connection';

/** KEYS[1]; ARGV capacity, refillPerSecond, cost → { allowed, remaining, retryAfterMs }. Mirrors takeTokens(). */
const TAKE = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local capacity, rate, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local k = KEYS[1]
local saved = redis.call('HMGET', k, 't', 'at')
local tokens, at = tonumber(saved[1]) or capacity, tonumber(saved[2]) or now
local refilled = math.min(capacity, tokens + math.max(0, now - at) * rate / 1000)
local allowed, left, retry = 0, refilled, 0
if refilled >= cost then
  allowed, left = 1, refilled - cost
else
  retry = math.ceil((cost - refilled) * 1000 / rate)
end
redis.call('HSET', k, 't', tostring(left), 'at', now)
redis.call('PEXPIREAT', k, now + math.max(1, math.ceil((capacity - left) * 1000 / rate)))
return { allowed, math.floor(left), retry }
`);

export class RedisTokenBucket implements TokenBucketStore {
  constructor(private readonly redis: RedisConnection) {}

  async take(key: string, rule: TokenBucketRule): Promise<TokenBucketResult> {
    const { capacity, refillPerSecond, cost } = checkedRule(rule);
    const [allowed, remaining, retryAfterMs] = await this.redis.script<RedisReply[]>(
      TAKE,
      [this.redis.key('tb', key)],
      [String(capacity), String(refillPerSecond), String(cost)],
    );
    return { allowed: allowed === 1, remaining: Number(remaining), retryAfterMs: Number(retryAfterMs) };
  }
}
