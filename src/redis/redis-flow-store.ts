/**
 * FlowStore on Redis: one hash per flow (`<prefix>flow:<id>`) with the holder (`h`), its lease end
 * (`l`, ms by Redis's own clock, so instances' clocks never disagree about it), the completion
 * (`d`), each once-result (`o:<key>`), the expiry (`e`) and, once a continuing round claimed it,
 * when the flow started (`s`); each operation is one Lua script, so a claim by two instances at
 * once is decided by Redis. The key expires at the latest expiry written (PEXPIREAT).
 *
 * Bounded like MemoryFlowStore, fleet-wide (redis-flow-pools.ts): a principal's unfinished flows
 * and bytes have a share, all records a count and bytes; a full share refuses that principal
 * (`full`, scope `principal`), others go on; under pressure the oldest completed records go first
 * and a retry of one is `expired`. One difference, deliberate: a flow is forgotten at its expiry
 * even while held (the expiry is the flow's TTL, far longer than any lease). Run Redis with
 * `maxmemory-policy noeviction` as well, so a Redis that is full anyway refuses writes (the round
 * fails closed) instead of evicting a live flow.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_FLOW_STORE_LIMITS, type FlowStoreLimits } from '../state/memory-flow-store';
import { FlowTakenOverError, type FlowClaim, type FlowStore, type OnceRecord } from '../state/flow-store';
import { luaScript, type RedisConnection, type RedisReply } from './connection';
import { FLOW_POOLS } from './redis-flow-pools';

/** The anonymous callers' pool's owner (no principal id has a NUL). */
const ANONYMOUS = '\u0000anonymous';

/** A pool's id, hashed here rather than in the scripts (SHA-1 in Lua costs Redis about 3 µs a call). */
function poolId(owner: string | undefined): string {
  return createHash('sha1')
    .update(owner ?? ANONYMOUS)
    .digest('hex');
}

/** ARGV: prefix, id, holder, expiresAt, leaseMs, pool id, startedAt ('' for a first round), then the four limits. */
const CLAIM = luaScript(`${FLOW_POOLS}
local k, id, holder = KEYS[1], ARGV[2], ARGV[3]
local done = redis.call('HGET', k, 'd')
if done then return {'completed', done} end
local t = now()
local current = redis.call('HGET', k, 'h')
local other = current and current ~= holder
if other and tonumber(redis.call('HGET', k, 'l') or '0') > t then return {'busy'} end
if redis.call('EXISTS', k) == 0 then
  -- Counted but gone (its expiry passed before the index caught up): no longer counted.
  forget(id, false)
  -- A continuing round whose record is gone: if it could be one let go, fail closed.
  if ARGV[7] ~= '' and tonumber(ARGV[7]) <= num(redis.call('HGET', G, 'h')) then return {'expired'} end
  local refusal = admit(ARGV[6], t, tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11]))
  if refusal then return {'full', refusal} end
  track(id, ARGV[6])
end
redis.call('HSET', k, 'h', holder, 'l', t + tonumber(ARGV[5]))
if ARGV[7] ~= '' then redis.call('HSETNX', k, 's', ARGV[7]) end
extend(k, id, ARGV[4])
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

const RENEW = luaScript(`
local t = redis.call('TIME')
if redis.call('HGET', KEYS[1], 'h') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'l', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[2]))
return 1
`);

/** ARGV: prefix, id, holder, key, record JSON, expiresAt, maxBytes, maxBytesPerPrincipal. */
const RECORD_ONCE = luaScript(`${FLOW_POOLS}
local k, id, field = KEYS[1], ARGV[2], 'o:' .. ARGV[4]
if redis.call('HGET', k, 'h') ~= ARGV[3] then return 0 end
local old = redis.call('HGET', k, field)
redis.call('HSET', k, field, ARGV[5])
extend(k, id, ARGV[6])
local owner = charge(id, #field + #ARGV[5] - (old and #field + #old or 0))
if owner then trim(owner, tonumber(ARGV[7]), tonumber(ARGV[8])) end
return 1
`);

/** ARGV: prefix, id, holder, completion JSON, expiresAt, maxBytes, maxBytesPerPrincipal. */
const COMPLETE = luaScript(`${FLOW_POOLS}
local k, id = KEYS[1], ARGV[2]
if redis.call('HGET', k, 'h') ~= ARGV[3] then return 0 end
-- The once-results are not needed any more: a retry gets the result, nothing runs again.
local all = redis.call('HGETALL', k)
local freed = 0
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 2) == 'o:' then
    freed = freed + #all[i] + #all[i + 1]
    redis.call('HDEL', k, all[i])
  end
end
redis.call('HSET', k, 'd', ARGV[4])
redis.call('HDEL', k, 'h', 'l')
extend(k, id, ARGV[5])
local owner = charge(id, #ARGV[4] - freed)
if owner then
  completed(id, owner, now())
  trim(owner, tonumber(ARGV[6]), tonumber(ARGV[7]))
end
return 1
`);

const RELEASE = luaScript(`
if redis.call('HGET', KEYS[1], 'h') == ARGV[1] then redis.call('HDEL', KEYS[1], 'h', 'l') end
return 1
`);

export class RedisFlowStore implements FlowStore {
  /** The shares, fleet-wide (every instance on this Redis and key prefix counts against the same ones). */
  readonly limits: Readonly<FlowStoreLimits>;

  constructor(
    private readonly redis: RedisConnection,
    limits: Partial<FlowStoreLimits> = {},
  ) {
    this.limits = Object.freeze({ ...DEFAULT_FLOW_STORE_LIMITS, ...limits });
  }

  async claim(
    flowId: string,
    holder: string,
    expiresAtMs: number,
    leaseMs: number,
    owner?: string,
    startedAtMs?: number,
  ): Promise<FlowClaim> {
    const l = this.limits;
    const reply = await this.redis.script<RedisReply[]>(
      CLAIM,
      [this.key(flowId)],
      [
        this.redis.keyPrefix,
        flowId,
        holder,
        String(expiresAtMs),
        String(leaseMs),
        poolId(owner),
        startedAtMs === undefined ? '' : String(startedAtMs),
        String(l.maxFlows),
        String(l.maxFlowsPerPrincipal),
        String(l.maxBytes),
        String(l.maxBytesPerPrincipal),
      ],
    );
    const [kind, payload] = reply;
    if (kind === 'completed') return { kind: 'completed', result: (JSON.parse(String(payload)) as { r?: unknown }).r };
    if (kind === 'busy') return { kind: 'busy' };
    if (kind === 'expired') return { kind: 'expired' };
    if (kind === 'full') return { kind: 'full', scope: payload === 'principal' ? 'principal' : 'server' };
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
      [this.redis.keyPrefix, flowId, holder, key, JSON.stringify(record), String(expiresAtMs), ...this.byteLimits()],
    );
    if (written !== 1) throw new FlowTakenOverError(flowId);
  }

  async complete(
    flowId: string,
    holder: string,
    result: unknown,
    expiresAtMs: number,
    resultJson?: string,
  ): Promise<void> {
    // `{"r":…}` around the caller's text is JSON.stringify({ r: result }) without stringifying again.
    const record = resultJson === undefined ? JSON.stringify({ r: result }) : `{"r":${resultJson}}`;
    const written = await this.redis.script(
      COMPLETE,
      [this.key(flowId)],
      [this.redis.keyPrefix, flowId, holder, record, String(expiresAtMs), ...this.byteLimits()],
    );
    if (written !== 1) throw new FlowTakenOverError(flowId);
  }

  async release(flowId: string, holder: string): Promise<void> {
    await this.redis.script(RELEASE, [this.key(flowId)], [holder]);
  }

  private byteLimits(): [string, string] {
    return [String(this.limits.maxBytes), String(this.limits.maxBytesPerPrincipal)];
  }

  private key(flowId: string): string {
    return this.redis.key('flow', flowId);
  }
}
