/**
 * The per-principal pools of the Redis flow store, as a Lua library its scripts begin with: the
 * same shares as MemoryFlowStore (a count of unfinished flows and a byte share per principal,
 * anonymous callers sharing one; a count and bytes in all), decided inside the script that claims
 * or records, so two instances never both take the last slot.
 *
 * Keys (ARGV[1] is the connection's key prefix; every script using this library passes it first):
 *   - `flows` hash: `n` records, `b` bytes, `h` the horizon, `e` its expiry, and per record
 *     `r:<id>` = "<bytes> <owner>" — the one place a record is counted;
 *   - `flows:expiry` zset (id → expiry) for letting expired records go, `flows:done` zset
 *     (id → completion time) for letting completed ones go oldest first;
 *   - `flowpool:<sha1(owner)>` hash: `n` unfinished, `c` completed, `b` bytes, `e`, `r:<id>`;
 *     and its `:done` zset.
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
local function poolOf(owner) return PREFIX .. 'flowpool:' .. redis.sha1hex(owner) end

local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- A group of bookkeeping keys lives as long as the latest record it counts.
local function keepGroup(at, hash, ...)
  local e = num(redis.call('HGET', hash, 'e'))
  if at > e then redis.call('HSET', hash, 'e', at); e = at end
  redis.call('PEXPIREAT', hash, e)
  for _, zset in ipairs({...}) do redis.call('PEXPIREAT', zset, e) end
end

-- A counted record: its bytes and owner (nil when not counted).
local function record(id)
  local v = redis.call('HGET', G, 'r:' .. id)
  if not v then return nil end
  local sp = string.find(v, ' ', 1, true)
  return tonumber(string.sub(v, 1, sp - 1)), string.sub(v, sp + 1)
end

-- Stops counting a record; \`dropped\`: let go under pressure (deleted, the horizon moves past it).
local function forget(id, dropped)
  local bytes, owner = record(id)
  redis.call('ZREM', X, id)
  redis.call('ZREM', D, id)
  if not bytes then return end
  if dropped then
    local fk = flowKey(id)
    local s = redis.call('HGET', fk, 's')
    if s and tonumber(s) > num(redis.call('HGET', G, 'h')) then redis.call('HSET', G, 'h', s) end
    redis.call('DEL', fk)
  end
  redis.call('HDEL', G, 'r:' .. id)
  redis.call('HINCRBY', G, 'n', -1)
  redis.call('HINCRBY', G, 'b', -bytes)
  local P = poolOf(owner)
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
    redis.call('ZREM', zset, first[1])
  end
end

-- Adds \`delta\` bytes to a counted record; returns its owner (nil when not counted).
local function charge(id, delta)
  local bytes, owner = record(id)
  if not bytes then return nil end
  redis.call('HSET', G, 'r:' .. id, (bytes + delta) .. ' ' .. owner)
  redis.call('HINCRBY', G, 'b', delta)
  local P = poolOf(owner)
  if redis.call('HEXISTS', P, 'r:' .. id) == 1 then redis.call('HINCRBY', P, 'b', delta) end
  return owner
end

-- Room for one more flow of \`owner\`, letting completed records go first; else whose share is used.
local function admit(owner, t, maxFlows, maxPer, maxBytes, maxBytesPer)
  local P = poolOf(owner)
  local PD = P .. ':done'
  prune(t, 100)
  if num(redis.call('HGET', P, 'n')) >= maxPer then
    prune(t, 1000)
    if num(redis.call('HGET', P, 'n')) >= maxPer then return 'principal' end
  end
  while num(redis.call('HGET', P, 'b')) + ENTRY > maxBytesPer and dropOldest(PD) do end
  if num(redis.call('HGET', P, 'b')) + ENTRY > maxBytesPer then return 'principal' end
  if num(redis.call('HGET', G, 'n')) >= maxFlows then prune(t, 1000) end
  while num(redis.call('HGET', G, 'n')) >= maxFlows and dropOldest(D) do end
  while num(redis.call('HGET', G, 'b')) + ENTRY > maxBytes and dropOldest(D) do end
  if num(redis.call('HGET', G, 'n')) >= maxFlows or num(redis.call('HGET', G, 'b')) + ENTRY > maxBytes then
    return 'server'
  end
  return nil
end

-- Counts a new (unfinished) record of \`owner\`.
local function track(id, owner)
  local bytes = ENTRY + #id
  local P = poolOf(owner)
  redis.call('HSET', G, 'r:' .. id, bytes .. ' ' .. owner)
  redis.call('HINCRBY', G, 'n', 1)
  redis.call('HINCRBY', G, 'b', bytes)
  redis.call('HSET', P, 'r:' .. id, 1)
  redis.call('HINCRBY', P, 'n', 1)
  redis.call('HINCRBY', P, 'b', bytes)
end

-- A counted record completed at \`t\`: it moves from its pool's unfinished to its completed.
local function completed(id, owner, t)
  local P = poolOf(owner)
  if redis.call('HEXISTS', P, 'r:' .. id) == 1 then
    redis.call('HINCRBY', P, 'n', -1)
    redis.call('HINCRBY', P, 'c', 1)
    redis.call('ZADD', P .. ':done', t, id)
  end
  redis.call('ZADD', D, t, id)
end

-- After a record grew: completed records go (oldest first) until the shares fit again.
local function trim(owner, maxBytes, maxBytesPer)
  local P = poolOf(owner)
  while num(redis.call('HGET', P, 'b')) > maxBytesPer and dropOldest(P .. ':done') do end
  while num(redis.call('HGET', G, 'b')) > maxBytes and dropOldest(D) do end
end

-- Moves a record's expiry forward (never back): its hash, its index entry, its groups.
local function extend(k, id, at)
  at = tonumber(at)
  local cur = num(redis.call('HGET', k, 'e'))
  if at > cur then
    redis.call('HSET', k, 'e', at)
    redis.call('PEXPIREAT', k, at)
  end
  local _, owner = record(id)
  if not owner then return end
  if at > cur then redis.call('ZADD', X, at, id) end
  keepGroup(at, G, X, D)
  keepGroup(at, poolOf(owner), poolOf(owner) .. ':done')
end
`;
