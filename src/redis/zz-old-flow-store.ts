/**
 * FlowStore on Redis: one hash per flow (`<prefix>flow:<id>`) with the holder (`h`), its lease end
 * (`l`, ms by Redis's own clock, so instances' clocks never disagree about it), the completion
 * (`d`), each once-result (`o:<key>`) and the expiry (`e`); each operation is one Lua script, so a
 * claim by two instances at once is decided by Redis. The key expires at the latest expiry written
 * (PEXPIREAT). Differences from MemoryFlowStore, both deliberate:
 *   - a flow is forgotten at its expiry even while held (the expiry is the flow's TTL, far longer
 *     than any lease);
 *   - no `full`: Redis's own memory limit bounds it; run Redis with `maxmemory-policy noeviction` so
 *     a full Redis refuses writes (the round fails closed) instead of evicting a live flow.
 */
import { FlowTakenOverError, type FlowClaim, type FlowStore, type OnceRecord } from '../state/flow-store';
import { luaScript, type RedisConnection, type RedisReply } from './connection';

/** Moves the expiry forward (never back): HSET e and PEXPIREAT. */
const EXTEND = `
local function extend(k, at)
  local cur = tonumber(redis.call('HGET', k, 'e') or '0')
  if tonumber(at) > cur then
    redis.call('HSET', k, 'e', at)
    redis.call('PEXPIREAT', k, at)
  end
end
`;

/** Redis's clock in ms: every instance measures leases against the same one. */
const NOW = `
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

const CLAIM = luaScript(`${EXTEND}${NOW}
local k = KEYS[1]
local done = redis.call('HGET', k, 'd')
if done then return {'completed', done} end
local t = now()
local holder = redis.call('HGET', k, 'h')
local other = holder and holder ~= ARGV[1]
if other and tonumber(redis.call('HGET', k, 'l') or '0') > t then return {'busy'} end
redis.call('HSET', k, 'h', ARGV[1], 'l', t + tonumber(ARGV[3]))
extend(k, ARGV[2])
local all = redis.call('HGETALL', k)
local onces = {}
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 2) == 'o:' then
    onces[#onces + 1] = string.sub(all[i], 3)
    onces[#onces + 1] = all[i + 1]
  end
end
return {other and 'taken-over' or 'claimed', onces}
`);

const RENEW = luaScript(`${NOW}
if redis.call('HGET', KEYS[1], 'h') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'l', now() + tonumber(ARGV[2]))
return 1
`);

const RECORD_ONCE = luaScript(`${EXTEND}
local k = KEYS[1]
if redis.call('HGET', k, 'h') ~= ARGV[1] then return 0 end
redis.call('HSET', k, 'o:' .. ARGV[2], ARGV[3])
extend(k, ARGV[4])
return 1
`);

const COMPLETE = luaScript(`${EXTEND}
local k = KEYS[1]
if redis.call('HGET', k, 'h') ~= ARGV[1] then return 0 end
redis.call('HSET', k, 'd', ARGV[2])
redis.call('HDEL', k, 'h', 'l')
extend(k, ARGV[3])
return 1
`);

const RELEASE = luaScript(`
if redis.call('HGET', KEYS[1], 'h') == ARGV[1] then redis.call('HDEL', KEYS[1], 'h', 'l') end
return 1
`);

export class RedisFlowStore implements FlowStore {
  constructor(private readonly redis: RedisConnection) {}

  async claim(flowId: string, holder: string, expiresAtMs: number, leaseMs: number): Promise<FlowClaim> {
    const reply = await this.redis.script<RedisReply[]>(
      CLAIM,
      [this.key(flowId)],
      [holder, String(expiresAtMs), String(leaseMs)],
    );
    const [kind, payload] = reply;
    if (kind === 'completed') return { kind: 'completed', result: (JSON.parse(String(payload)) as { r?: unknown }).r };
    if (kind === 'busy') return { kind: 'busy' };
    const onces: Record<string, OnceRecord> = {};
    const pairs = Array.isArray(payload) ? payload : [];
    for (let i = 0; i + 1 < pairs.length; i += 2)
      onces[String(pairs[i])] = JSON.parse(String(pairs[i + 1])) as OnceRecord;
    return kind === 'taken-over' ? { kind: 'claimed', onces, tookOver: true } : { kind: 'claimed', onces };
  }

  async renew(flowId: string, holder: string, leaseMs: number): Promise<boolean> {
    return (await this.redis.script(RENEW, [this.key(flowId)], [holder, String(leaseMs)])) === 1;
  }

  async recordOnce(
    flowId: string,
    holder: string,
    key: string,
    record: OnceRecord,
    expiresAtMs: number,
  ): Promise<void> {
    const written = await this.redis.script(
      RECORD_ONCE,
      [this.key(flowId)],
      [holder, key, JSON.stringify(record), String(expiresAtMs)],
    );
    if (written !== 1) throw new FlowTakenOverError(flowId);
  }

  async complete(flowId: string, holder: string, result: unknown, expiresAtMs: number): Promise<void> {
    const written = await this.redis.script(
      COMPLETE,
      [this.key(flowId)],
      [holder, JSON.stringify({ r: result }), String(expiresAtMs)],
    );
    if (written !== 1) throw new FlowTakenOverError(flowId);
  }

  async release(flowId: string, holder: string): Promise<void> {
    await this.redis.script(RELEASE, [this.key(flowId)], [holder]);
  }

  private key(flowId: string): string {
    return this.redis.key('flow', flowId);
  }
}
