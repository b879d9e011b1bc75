/**
 * The per-principal pools of the Redis flow store, as a Lua library its scripts begin with: the
 * same shares as MemoryFlowStore (a count of unfinished flows and a byte share per principal,
 * anonymous callers sharing one; a count and bytes in all), decided inside the script that claims
 * or records, so two instances never both take the last slot.
 *
 * Keys (ARGV[1] is the connection's key prefix; every script using this library passes it first):
 *   - `flows` hash: `n` records, `b` bytes, `h` the horizon, `e` its expiry, and per record
 *     `r:<id>` = "<bytes> <pool>" — the one place a record is counted;
 *   - `flows:expiry` zset (id → expiry) for letting expired records go, `flows:done` zset
 *     (id → completion time) for letting completed ones go oldest first;
 *   - `flowpool:<pool>` hash (the pool's id is the SHA-1 of the owner, anonymous callers sharing
 *     one, computed by the caller): `n` unfinished, `c` completed, `b` bytes, `e`, `r:<id>`; and its
 *     `:done` zset.
 * Every key expires with the latest record it counts (so a pool's counters and its `r:` fields
 * vanish together, never one without the other); an index entry whose `r:` field is gone is stale
 * and skipped. The horizon is the latest start (`s`, the sealed state's flowStartedAt, recorded
 * by continuing rounds) of a completed record let go: a continuing round of a flow that started
 * no later and is not here may be one of them, so it is refused as expired, never run again.
 * Start times come from the sealed states, never from a clock, so instances' clocks cannot skew it.
 */

/**
 * What a record costs in Redis beside its values: its hash and expiry, the `r:` fields and the
 * index entries (INFO memory on Redis 7: 800 bytes a record with a 50-byte result, 5 000 records).
 */
export const REDIS_FLOW_ENTRY_BYTES = 760;

export const FLOW_POOLS = `
local PREFIX = ARGV[1]
local G = PREFIX .. 'flows'
local X = PREFIX .. 'flows:expiry'
local D = PREFIX .. 'flows:done'
local ENTRY = ${REDIS_FLOW_ENTRY_BYTES}

local function num(v) return tonumber(v or '0') or 0 end
local function flowKey(id) return PREFIX .. 'flow:' .. id end
local function poolOf(pool) return PREFIX .. 'flowpool:' .. pool end

local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- A group of bookkeeping keys lives as long as the latest record it counts (\`e\` of its hash).
local function keepGroup(at, hash, ...)
  if at <= num(redis.call('HGET', hash, 'e')) then return end
  redis.call('HSET', hash, 'e', at)
  redis.call('PEXPIREAT', hash, at)
  for _, zset in ipairs({...}) do redis.call('PEXPIREAT', zset, at) end
end

-- Adds to an index; one (re)created by this gets its group's expiry.
local function index(zset, hash, score, id)
  redis.call('ZADD', zset, score, id)
  if redis.call('PTTL', zset) == -1 then redis.call('PEXPIREAT', zset, num(redis.call('HGET', hash, 'e'))) end
end

-- A counted record: its bytes and its pool's id (nil when not counted).
local function record(id)
  local v = redis.call('HGET', G, 'r:' .. id)
  if not v then return nil end
  local sp = string.find(v, ' ', 1, true)
  return tonumber(string.sub(v, 1, sp - 1)), string.sub(v, sp + 1)
end

-- Stops counting a record; \`dropped\`: let go under pressure (deleted, the horizon moves past it).
local function forget(id, dropped)
  local bytes, pool = record(id)
  if not bytes then return end
  redis.call('ZREM', X, id)
  redis.call('ZREM', D, id)
  if dropped then
    local fk = flowKey(id)
    local s = redis.call('HGET', fk, 's')
    if s and tonumber(s) > num(redis.call('HGET', G, 'h')) then redis.call('HSET', G, 'h', s) end
    redis.call('DEL', fk)
  end
  redis.call('HDEL', G, 'r:' .. id)
  redis.call('HINCRBY', G, 'n', -1)
  redis.call('HINCRBY', G, 'b', -bytes)
  local P = poolOf(pool)
  local PD = P .. ':done'
  if redis.call('HDEL', P, 'r:' .. id) == 1 then
    local field = 'n'
    if redis.call('ZREM', PD, id) == 1 then field = 'c' end
    redis.call('HINCRBY', P, field, -1)
    redis.call('HINCRBY', P, 'b', -bytes)
    if num(redis.call('HGET', P, 'n')) + num(redis.call('HGET', P, 'c')) <= 0 then redis.call('DEL', P, PD) end
  end
end

-- Lets records whose expiry passed go (at most \`limit\`); Redis already deleted their hashes.
local function prune(t, limit)
  local ids = redis.call('ZRANGEBYSCORE', X, '-inf', '(' .. t, 'LIMIT', 0, limit)
  for i = 1, #ids do forget(ids[i], false) end
end

-- Lets the oldest completed record of \`zset\` go; false when there is none.
local function dropOldest(zset)
  while true do
    local first = redis.call('ZRANGE', zset, 0, 0)
    if #first == 0 then return false end
    if record(first[1]) then
      forget(first[1], true)
      return true
    end
    redis.call('ZREM', zset, first[1]) -- stale: counted no more
  end
end

-- Adds \`delta\` bytes to a counted record; returns its pool (nil when not counted).
local function charge(id, delta)
  local bytes, pool = record(id)
  if not bytes then return nil end
  redis.call('HSET', G, 'r:' .. id, (bytes + delta) .. ' ' .. pool)
  redis.call('HINCRBY', G, 'b', delta)
  local P = poolOf(pool)
  if redis.call('HEXISTS', P, 'r:' .. id) == 1 then redis.call('HINCRBY', P, 'b', delta) end
  return pool
end

-- Room for one more flow of \`pool\`, letting completed records go first; else whose share is used.
-- Unfinished count and bytes of a pool hash, or records and bytes of the whole store.
local function usage(hash)
  local v = redis.call('HMGET', hash, 'n', 'b')
  return num(v[1]), num(v[2])
end

local function admit(pool, t, maxFlows, maxPer, maxBytes, maxBytesPer)
  local P = poolOf(pool)
  prune(t, 100)
  local live, bytes = usage(P)
  if live >= maxPer then
    prune(t, 1000)
    live, bytes = usage(P)
    if live >= maxPer then return 'principal' end
  end
  while bytes + ENTRY > maxBytesPer and dropOldest(P .. ':done') do live, bytes = usage(P) end
  if bytes + ENTRY > maxBytesPer then return 'principal' end
  local n, b = usage(G)
  if n >= maxFlows then
    prune(t, 1000)
    n, b = usage(G)
  end
  while (n >= maxFlows or b + ENTRY > maxBytes) and dropOldest(D) do n, b = usage(G) end
  if n >= maxFlows or b + ENTRY > maxBytes then return 'server' end
  return nil
end

-- Counts a new (unfinished) record of \`pool\`.
local function track(id, pool)
  local bytes = ENTRY + #id
  local P = poolOf(pool)
  redis.call('HSET', G, 'r:' .. id, bytes .. ' ' .. pool)
  redis.call('HINCRBY', G, 'n', 1)
  redis.call('HINCRBY', G, 'b', bytes)
  redis.call('HSET', P, 'r:' .. id, 1)
  redis.call('HINCRBY', P, 'n', 1)
  redis.call('HINCRBY', P, 'b', bytes)
end

-- A counted record completed at \`t\`: it moves from its pool's unfinished to its completed.
local function completed(id, pool, t)
  local P = poolOf(pool)
  if redis.call('HEXISTS', P, 'r:' .. id) == 1 then
    redis.call('HINCRBY', P, 'n', -1)
    redis.call('HINCRBY', P, 'c', 1)
    index(P .. ':done', P, t, id)
  end
  index(D, G, t, id)
end

-- After a record grew: completed records go (oldest first) until the shares fit again.
local function trim(pool, maxBytes, maxBytesPer)
  local P = poolOf(pool)
  while num(redis.call('HGET', P, 'b')) > maxBytesPer and dropOldest(P .. ':done') do end
  while num(redis.call('HGET', G, 'b')) > maxBytes and dropOldest(D) do end
end

-- Moves a record's expiry forward (never back): its hash, its index entry, its groups.
-- The bookkeeping counts a record until the end of its expiry's 10-second step, not to the ms: a
-- little longer than the record lives (conservative), and one write per step instead of per round.
local STEP = 10000
local function stepOf(at) return math.ceil(at / STEP) * STEP end

local function extend(k, id, at)
  at = tonumber(at)
  local cur = num(redis.call('HGET', k, 'e'))
  if at <= cur then return end
  redis.call('HSET', k, 'e', at)
  redis.call('PEXPIREAT', k, at)
  local step = stepOf(at)
  if step <= stepOf(cur) then return end
  local _, pool = record(id)
  if not pool then return end
  local P = poolOf(pool)
  keepGroup(step, G, X, D)
  keepGroup(step, P, P .. ':done')
  index(X, G, step, id)
end
`;
