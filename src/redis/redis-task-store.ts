/**
 * TaskStore on Redis: one hash per task (`<prefix>task:<id>`: owner `o`, version `v`, value `d`,
 * expiry `e`, expiring at `e` by PEXPIREAT) and one sorted set per owner
 * (`<prefix>taskowner:<sha256(owner)>`, task id → expiry) for the per-owner cap. Create and
 * replace are Lua scripts, so two instances updating one task are ordered by Redis; a create has
 * been written (and is readable fleet-wide) when the script answers.
 */
import { createHash } from 'node:crypto';
import type { StoredTask, TaskStore } from '../state/task-store';
import { luaScript, type RedisConnection, type RedisReply } from './connection';

const CREATE = luaScript(`
local task, owned = KEYS[1], KEYS[2]
local id, owner, value, at, max, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), ARGV[6]
redis.call('ZREMRANGEBYSCORE', owned, '-inf', now)
if redis.call('ZCARD', owned) >= max then return 0 end
redis.call('HSET', task, 'o', owner, 'v', 1, 'd', value, 'e', at)
redis.call('PEXPIREAT', task, at)
redis.call('ZADD', owned, at, id)
local last = redis.call('ZRANGE', owned, -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', owned, last[2])
return 1
`);

const REPLACE = luaScript(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v or v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tonumber(v) + 1, 'd', ARGV[2])
return 1
`);

const DELETE = luaScript(`
local owner = redis.call('HGET', KEYS[1], 'o')
redis.call('DEL', KEYS[1])
if owner then redis.call('ZREM', ARGV[1] .. redis.sha1hex(owner), ARGV[2]) end
return 1
`);

export class RedisTaskStore implements TaskStore {
  constructor(private readonly redis: RedisConnection) {}

  async create(
    id: string,
    owner: string,
    value: string,
    expiresAt: number,
    maxPerOwner: number,
  ): Promise<'created' | 'full'> {
    const at = String(Math.ceil(expiresAt));
    const reply = await this.redis.script(
      CREATE,
      [this.redis.key('task', id), this.ownerKey(owner)],
      [id, owner, value, at, String(maxPerOwner), String(Date.now())],
    );
    return reply === 1 ? 'created' : 'full';
  }

  async get(id: string): Promise<StoredTask | undefined> {
    const reply = await this.redis.command<RedisReply[]>(['HMGET', this.redis.key('task', id), 'o', 'v', 'd', 'e']);
    const [owner, version, value, expiresAt] = reply as (string | null)[];
    if (owner == null || version == null || value == null || expiresAt == null) return undefined;
    if (Number(expiresAt) <= Date.now()) return undefined;
    return { owner, version: Number(version), value, expiresAt: Number(expiresAt) };
  }

  async replace(id: string, version: number, value: string): Promise<boolean> {
    return (await this.redis.script(REPLACE, [this.redis.key('task', id)], [String(version), value])) === 1;
  }

  async delete(id: string): Promise<void> {
    await this.redis.script(DELETE, [this.redis.key('task', id)], [this.redis.key('taskowner', ''), id]);
  }

  private ownerKey(owner: string): string {
    return this.redis.key('taskowner', createHash('sha1').update(owner).digest('hex'));
  }
}
