/**
 * ApprovalStore on Redis, so a page served by one instance and the call continuing on another meet:
 * one hash per flow (`<prefix>approval:<id>`) holding its binding (`m`), pages (`p:<nonce>`, answered
 * `pa:<nonce>`), answers (`a:<key>` and its fingerprint `f:<key>`), `ctx.once` results (`o:<key>`),
 * the holder (`h`) and the completion (`d`); it expires at the flow's expiry (PEXPIREAT). Two sorted
 * sets (`approvals:all`, `approvals:by:<caller>`, scored by expiry) count open flows for the caps.
 * Every write that must happen once (hold, an answer, complete) is one Lua script: Redis decides.
 */
import type {
  ApprovalFlowLimits,
  ApprovalFlowRecord,
  ApprovalStore,
  NewApprovalFlow,
  StoredPage,
} from '../state/approval-store';
import { luaScript, type RedisConnection, type RedisReply } from './connection';

/** Drops expired members (by Redis's clock) and keeps the set alive as long as its latest member. */
const INDEX = `
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function prune(k)
  redis.call('ZREMRANGEBYSCORE', k, '-inf', now())
end
local function keep(k)
  local last = redis.call('ZRANGE', k, -1, -1, 'WITHSCORES')
  if last[2] then redis.call('PEXPIREAT', k, last[2]) end
end
`;

const ADD = luaScript(`${INDEX}
prune(KEYS[2])
prune(KEYS[3])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 'all' end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 'caller' end
redis.call('HSET', KEYS[1], 'm', ARGV[5], 'np', 0)
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
keep(KEYS[2])
keep(KEYS[3])
return 'ok'
`);

const HOLD = luaScript(`
local k = KEYS[1]
if redis.call('EXISTS', k) == 0 or redis.call('HEXISTS', k, 'd') == 1 then return 0 end
local h = redis.call('HGET', k, 'h')
if h and h ~= ARGV[1] then return 0 end
redis.call('HSET', k, 'h', ARGV[1])
return 1
`);

const ADD_PAGE = luaScript(`
local k = KEYS[1]
if redis.call('EXISTS', k) == 0 then return 0 end
if tonumber(redis.call('HGET', k, 'np') or '0') >= tonumber(ARGV[3]) then return 0 end
redis.call('HINCRBY', k, 'np', 1)
redis.call('HSET', k, 'p:' .. ARGV[1], ARGV[2])
return 1
`);

const RECORD_ANSWER = luaScript(`
local k = KEYS[1]
local page = redis.call('HGET', k, 'p:' .. ARGV[1])
if not page then return 0 end
if redis.call('HEXISTS', k, 'pa:' .. ARGV[1]) == 1 or redis.call('HEXISTS', k, 'd') == 1 then return 0 end
local p = cjson.decode(page)
redis.call('HSET', k, 'pa:' .. ARGV[1], 1, 'a:' .. p.key, ARGV[2], 'f:' .. p.key, p.fingerprint)
return 1
`);

const RECORD_ONCE = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'o:' .. ARGV[1], ARGV[2])
return 1
`);

const COMPLETE = luaScript(`
local k = KEYS[1]
if redis.call('HGET', k, 'h') ~= ARGV[1] then return 0 end
redis.call('HSET', k, 'd', ARGV[2])
redis.call('HDEL', k, 'h')
return 1
`);

const RELEASE = luaScript(`
if redis.call('HGET', KEYS[1], 'h') == ARGV[1] then redis.call('HDEL', KEYS[1], 'h') end
return 1
`);

const ANONYMOUS = '\u0000anonymous';

export class RedisApprovalStore implements ApprovalStore {
  constructor(private readonly redis: RedisConnection) {}

  async add(flow: NewApprovalFlow, limits: ApprovalFlowLimits): Promise<string | undefined> {
    const meta = JSON.stringify({ ...flow });
    const reply = await this.redis.script(
      ADD,
      [this.key(flow.id), this.redis.key('approvals', 'all'), this.callerKey(flow.principal)],
      [flow.id, String(flow.expiresAt), String(limits.maxFlows), String(limits.maxFlowsPerCaller), meta],
    );
    if (reply === 'all') return 'the server has too many approvals open; try again later';
    if (reply === 'caller') return 'too many approvals open for this caller; finish or let some expire';
    return undefined;
  }

  async get(id: string): Promise<ApprovalFlowRecord | undefined> {
    const reply: unknown = await this.redis.command(['HGETALL', this.key(id)]);
    // node-redis answers HGETALL as a flat array or, depending on its version and protocol, as an object.
    const fields = Array.isArray(reply) ? (reply as RedisReply[]) : Object.entries(reply ?? {}).flat();
    return readFlow(fields as RedisReply[]);
  }

  async openFor(principal: string, tool: string, argsDigest: string): Promise<ApprovalFlowRecord | undefined> {
    const ids = await this.redis.command<string[]>(['ZRANGE', this.callerKey(principal), '0', '-1']);
    for (const id of ids.reverse()) {
      const flow = await this.get(id);
      if (flow && !flow.completed && flow.tool === tool && flow.argsDigest === argsDigest) return flow;
    }
    return undefined;
  }

  async hold(id: string, holder: string): Promise<boolean> {
    return (await this.redis.script(HOLD, [this.key(id)], [holder])) === 1;
  }

  async addPage(id: string, page: StoredPage, maxPages: number): Promise<boolean> {
    const stored = JSON.stringify({ ...page, answered: undefined });
    return (await this.redis.script(ADD_PAGE, [this.key(id)], [page.nonce, stored, String(maxPages)])) === 1;
  }

  async recordAnswer(id: string, nonce: string, answer: unknown): Promise<boolean> {
    return (await this.redis.script(RECORD_ANSWER, [this.key(id)], [nonce, JSON.stringify(answer ?? null)])) === 1;
  }

  async recordOnce(id: string, key: string, outcome: { value?: unknown }): Promise<void> {
    await this.redis.script(RECORD_ONCE, [this.key(id)], [key, JSON.stringify(outcome)]);
  }

  async complete(id: string, holder: string, result: unknown): Promise<void> {
    await this.redis.script(COMPLETE, [this.key(id)], [holder, JSON.stringify({ r: result })]);
  }

  async release(id: string, holder: string): Promise<void> {
    await this.redis.script(RELEASE, [this.key(id)], [holder]);
  }

  private key(id: string): string {
    return this.redis.key('approval', id);
  }

  private callerKey(principal: string | undefined): string {
    return this.redis.key('approvals:by', principal ?? ANONYMOUS);
  }
}

/** HGETALL's flat reply as a flow (undefined when the hash is gone or has expired). */
function readFlow(fields: readonly RedisReply[]): ApprovalFlowRecord | undefined {
  const hash = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) hash.set(String(fields[i]), String(fields[i + 1]));
  const meta = hash.get('m');
  if (meta === undefined) return undefined;
  const flow: ApprovalFlowRecord = { ...(JSON.parse(meta) as NewApprovalFlow), answers: {}, onces: {}, pages: {} };
  if (flow.expiresAt <= Date.now()) return undefined;
  for (const [field, value] of hash) {
    const colon = field.indexOf(':');
    const kind = colon < 0 ? field : field.slice(0, colon);
    const name = field.slice(colon + 1);
    if (kind === 'p') flow.pages[name] = { ...(JSON.parse(value) as StoredPage), answered: hash.has(`pa:${name}`) };
    else if (kind === 'a') flow.answers[name] = { fingerprint: hash.get(`f:${name}`) ?? '', answer: JSON.parse(value) };
    else if (kind === 'o') flow.onces[name] = JSON.parse(value) as { value?: unknown };
  }
  const holder = hash.get('h');
  if (holder !== undefined) flow.holder = holder;
  const done = hash.get('d');
  if (done !== undefined) flow.completed = { result: (JSON.parse(done) as { r?: unknown }).r };
  return flow;
}
