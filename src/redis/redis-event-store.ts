/**
 * The legacy resumability EventStore on Redis: a Redis stream per SSE stream
 * (`<prefix>events:<streamId>`), capped at `maxEventsPerStream` (oldest dropped first) and expiring
 * `ttlMs` after its last event (PEXPIREAT). An event id is `<streamId>_<entry id>`: unique across
 * streams and instances (Redis assigns the entry id), and enough on its own to find the stream, so
 * a client can resume with `Last-Event-ID` on any instance.
 */
import type { JsonRpcMessage } from '../protocol/jsonrpc';
import type { EventStore, StoredEvent } from '../transports/http/event-store';
import { luaScript, type RedisConnection, type RedisReply } from './connection';

export interface RedisEventStoreOptions {
  /** Events kept per stream; default 1000. */
  maxEventsPerStream?: number;
  /** How long a stream is kept after its last event; default 1 hour. */
  ttlMs?: number;
}

/** KEYS[1] stream; ARGV message, cap, expiresAtMs → the entry id. */
const APPEND = luaScript(`
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], '*', 'm', ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return id
`);

/** KEYS[1] stream; ARGV entry id → false when unknown or dropped, else the entries after it. */
const AFTER = luaScript(`
if #redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1]) == 0 then return false end
return redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+')
`);

const ENTRY_ID = /^\d+-\d+$/;

export class RedisEventStore implements EventStore {
  private readonly maxEventsPerStream: number;
  private readonly ttlMs: number;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisEventStoreOptions = {},
  ) {
    this.maxEventsPerStream = options.maxEventsPerStream ?? 1_000;
    this.ttlMs = options.ttlMs ?? 3_600_000;
    if (!Number.isInteger(this.maxEventsPerStream) || this.maxEventsPerStream < 1) throw new RangeError('RedisEventStore: maxEventsPerStream must be an integer ≥ 1');
    if (!(this.ttlMs > 0)) throw new RangeError('RedisEventStore: ttlMs must be > 0');
  }

  async append(streamId: string, message: JsonRpcMessage | null): Promise<string> {
    const args = [JSON.stringify(message), String(this.maxEventsPerStream), String(Date.now() + this.ttlMs)];
    const entryId = await this.redis.script<string>(APPEND, [this.key(streamId)], args);
    return `${streamId}_${entryId}`;
  }

  async eventsAfter(lastEventId: string): Promise<{ streamId: string; events: StoredEvent[] } | undefined> {
    const cut = lastEventId.lastIndexOf('_');
    const streamId = lastEventId.slice(0, cut);
    const entryId = lastEventId.slice(cut + 1);
    if (cut <= 0 || !ENTRY_ID.test(entryId)) return undefined;
    const entries = await this.redis.script<RedisReply[] | null>(AFTER, [this.key(streamId)], [entryId]);
    if (!Array.isArray(entries)) return undefined;
    return { streamId, events: entries.map((entry) => this.event(streamId, entry)) };
  }

  async dropStream(streamId: string): Promise<void> {
    await this.redis.command(['DEL', this.key(streamId)]);
  }

  /** An XRANGE entry: [id, [field, value, …]]. */
  private event(streamId: string, entry: RedisReply): StoredEvent {
    const [id, fields] = Array.isArray(entry) ? entry : [];
    const values = Array.isArray(fields) ? fields : [];
    const at = values.indexOf('m');
    const raw = at >= 0 ? values[at + 1] : undefined;
    return {
      id: `${streamId}_${String(id)}`,
      message: typeof raw === 'string' ? (JSON.parse(raw) as JsonRpcMessage | null) : null,
    };
  }

  private key(streamId: string): string {
    return this.redis.key('events', streamId);
  }
}
