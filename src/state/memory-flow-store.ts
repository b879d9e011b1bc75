/**
 * The default FlowStore: one process. Bounded by count and by bytes, per principal and in all:
 *   - a live flow (unfinished: held, or waiting for its next round) is never forgotten before its
 *     expiry — forgetting it would run its effects again. When the live flows of one principal
 *     reach `maxFlowsPerPrincipal` (or its bytes its share), that principal's new flows are refused
 *     (`full`, scope `principal`); others go on;
 *   - a completed flow is a compact record (its result as JSON text) kept so a retry gets the first
 *     result. Under pressure (a share or the whole store full) the oldest completed records go
 *     first, and the store remembers how far it went (`horizon`: the latest completion it let go),
 *     so a retry of a dropped flow — any continuing round of a flow that started before the
 *     horizon and is not here — is answered `expired`: refused, never run again.
 * So the store keeps up with any completion rate; what the rate decides is how long a finished
 * flow's retry still gets its first result (docs/multi-round-trip.md).
 */
import { CompletionQueue } from './completion-queue';
import { FlowTakenOverError, type FlowClaim, type FlowStore, type OnceRecord } from './flow-store';

/**
 * One flow's record, live or completed. A class whose constructor sets every field, so a record is one
 * object with its fields in place (no property array added when a field is first set, no object for the
 * completion): at the default cap the store keeps 100 000 of them, and each one a flow leaves behind is
 * copied by the young-generation GC and then marked by the old one (issue 34: 247 → 215 heap bytes a record
 * beside its id string; about 255 with it, which docs/multi-round-trip.md rounds to 250 and a test holds).
 */
class FlowEntry {
  holder: string | undefined = undefined;
  /** When the holder's lease lapses (epoch ms) unless renewed. */
  leaseUntil = 0;
  /** Made on the first `ctx.once` record: most flows have none. JSON text, see `frozen`. */
  onces: Record<string, string> | undefined = undefined;
  completed = false;
  /** A completed flow's result as JSON text (undefined: the flow returned nothing). */
  resultJson: string | undefined = undefined;
  /** When it completed (epoch ms). */
  completedAt = 0;
  /** What the record costs, as counted against the budgets. */
  bytes = 0;
  /** False once the store let the record go: the completion queues skip it without a map lookup. */
  kept = true;

  constructor(
    readonly id: string,
    /** Epoch ms. */
    public expiresAt: number,
    readonly owner: Pool,
  ) {}
}

/** One principal's share (anonymous callers share one). */
interface Pool {
  readonly key: string;
  live: number;
  /** Its completed flows kept now. */
  completedCount: number;
  bytes: number;
  /** Its completed flows, oldest completion first. */
  readonly completed: CompletionQueue<FlowEntry>;
}

export interface FlowStoreLimits {
  /** Records (live and completed) in all. */
  maxFlows: number;
  /** Live flows of one principal (anonymous callers together count as one). */
  maxFlowsPerPrincipal: number;
  /** Bytes of all records. */
  maxBytes: number;
  /** Bytes of one principal's records. */
  maxBytesPerPrincipal: number;
}

export const DEFAULT_MAX_TRACKED_FLOWS = 100_000;

export const DEFAULT_FLOW_STORE_LIMITS: Readonly<FlowStoreLimits> = Object.freeze({
  maxFlows: DEFAULT_MAX_TRACKED_FLOWS,
  maxFlowsPerPrincipal: 10_000,
  maxBytes: 256 * 1024 * 1024,
  maxBytesPerPrincipal: 32 * 1024 * 1024,
});

/** A record's fixed cost beside its JSON: the entry, its map slots, the holder string. */
const ENTRY_BYTES = 240;
const ANONYMOUS = '\u0000anonymous';

/**
 * Values are kept as JSON text: what a shared store would give back, and no aliasing with the
 * handler's objects. Written once, parsed only when read back (a retry), which most flows never do.
 */
function frozen(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

function thawed<T>(json: string | undefined): T {
  return (json === undefined ? undefined : JSON.parse(json)) as T;
}

/** One parse of the whole map: any key (even `__proto__`) comes back as an own property. */
function thawedOnces(onces: Record<string, string>): Record<string, OnceRecord> {
  let text = '';
  for (const key in onces) text += (text === '' ? '' : ',') + JSON.stringify(key) + ':' + onces[key];
  return JSON.parse(`{${text}}`) as Record<string, OnceRecord>;
}

export class MemoryFlowStore implements FlowStore {
  private readonly flows = new Map<string, FlowEntry>();
  private readonly pools = new Map<string, Pool>();
  /** Whether a queued record is still kept (not expired, not let go through another queue). */
  private readonly isKept = (entry: FlowEntry): boolean => entry.kept;
  /** Every completed flow, oldest completion first. */
  private readonly completedOrder = new CompletionQueue<FlowEntry>(this.isKept);
  private completedCount = 0;
  private totalBytes = 0;
  /** The latest completion time (epoch ms) of a record let go under pressure (0: none). */
  private horizon = 0;
  /** A full store sweeps at most once a second: a flood of new flows must not buy an O(n) scan each. */
  private nextSweepAt = 0;
  readonly limits: Readonly<FlowStoreLimits>;

  constructor(
    limits: number | Partial<FlowStoreLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    const given = typeof limits === 'number' ? { maxFlows: limits } : limits;
    this.limits = Object.freeze({ ...DEFAULT_FLOW_STORE_LIMITS, ...given });
  }

  get maxFlows(): number {
    return this.limits.maxFlows;
  }

  /** Flows tracked right now (live or not yet swept). */
  get size(): number {
    return this.flows.size;
  }

  /** Bytes the records hold, as counted against `maxBytes`. */
  get bytes(): number {
    return this.totalBytes;
  }

  async claim(
    flowId: string,
    holder: string,
    expiresAtMs: number,
    leaseMs: number,
    owner?: string,
    startedAtMs?: number,
  ): Promise<FlowClaim> {
    return this.claimNow(flowId, holder, expiresAtMs, leaseMs, owner, startedAtMs);
  }

  /**
   * `claim`, answered without a promise: this store never waits. A flow's hold uses it (and completeNow,
   * releaseNow) when `claim` is this class's own, not a subclass's (issue 34: an async frame and two awaits
   * less per round that claims, completes or releases).
   */
  claimNow(
    flowId: string,
    holder: string,
    expiresAtMs: number,
    leaseMs: number,
    owner?: string,
    startedAtMs?: number,
  ): FlowClaim {
    const now = this.now();
    let entry = this.live(flowId, now);
    if (entry?.completed) return { kind: 'completed', result: thawed(entry.resultJson) };
    const other = entry?.holder !== undefined && entry.holder !== holder;
    if (other && entry!.leaseUntil > now) return { kind: 'busy' };
    if (!entry) {
      // A continuing round whose record is gone: if it could be one we let go, fail closed.
      if (startedAtMs !== undefined && startedAtMs <= this.horizon) return { kind: 'expired' };
      const pool = this.poolOf(owner);
      const refusal = this.admit(pool, now);
      if (refusal) {
        if (pool.live === 0 && pool.completedCount === 0) this.pools.delete(pool.key);
        return { kind: 'full', scope: refusal };
      }
      entry = new FlowEntry(flowId, expiresAtMs, pool);
      this.flows.set(flowId, entry);
      pool.live++;
      this.charge(entry, ENTRY_BYTES + flowId.length);
    }
    entry.holder = holder;
    entry.leaseUntil = now + leaseMs;
    entry.expiresAt = Math.max(entry.expiresAt, expiresAtMs);
    const onces = entry.onces ? thawedOnces(entry.onces) : {};
    return other ? { kind: 'claimed', onces, tookOver: true } : { kind: 'claimed', onces };
  }

  async renew(flowId: string, holder: string, leaseMs: number): Promise<boolean> {
    const entry = this.flows.get(flowId);
    if (entry?.holder !== holder) return false;
    entry.leaseUntil = this.now() + leaseMs;
    return true;
  }

  async recordOnce(
    flowId: string,
    holder: string,
    key: string,
    record: OnceRecord,
    expiresAtMs: number,
  ): Promise<void> {
    const entry = this.held(flowId, holder);
    const json = JSON.stringify(record);
    const onces = (entry.onces ??= Object.create(null) as Record<string, string>);
    this.charge(entry, json.length + key.length - (onces[key]?.length ?? 0));
    onces[key] = json;
    entry.expiresAt = Math.max(entry.expiresAt, expiresAtMs);
    this.trim(entry.owner);
  }

  async complete(
    flowId: string,
    holder: string,
    result: unknown,
    expiresAtMs: number,
    resultJson?: string,
  ): Promise<void> {
    this.completeNow(flowId, holder, result, expiresAtMs, resultJson);
  }

  /** `complete` without a promise (see claimNow); throws what `complete` rejects with. */
  completeNow(flowId: string, holder: string, result: unknown, expiresAtMs: number, resultJson?: string): void {
    const entry = this.held(flowId, holder);
    const json = resultJson ?? frozen(result);
    entry.completed = true;
    entry.resultJson = json;
    entry.completedAt = this.now();
    entry.holder = undefined;
    entry.expiresAt = Math.max(entry.expiresAt, expiresAtMs);
    // The once-results are not needed any more: a retry gets the result, nothing runs again.
    let oncesBytes = 0;
    for (const key in entry.onces) oncesBytes += key.length + entry.onces[key]!.length;
    entry.onces = undefined;
    this.charge(entry, (json?.length ?? 0) - oncesBytes);
    const pool = entry.owner;
    pool.live--;
    pool.completedCount++;
    this.completedCount++;
    pool.completed.push(entry);
    pool.completed.trim(pool.completedCount);
    this.completedOrder.push(entry);
    this.completedOrder.trim(this.completedCount);
    this.trim(pool);
  }

  async release(flowId: string, holder: string): Promise<void> {
    this.releaseNow(flowId, holder);
  }

  /** `release` without a promise (see claimNow). */
  releaseNow(flowId: string, holder: string): void {
    const entry = this.flows.get(flowId);
    if (entry?.holder === holder) entry.holder = undefined;
  }

  private poolOf(owner: string | undefined): Pool {
    const key = owner ?? ANONYMOUS;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = { key, live: 0, completedCount: 0, bytes: 0, completed: new CompletionQueue(this.isKept) };
      this.pools.set(key, pool);
    }
    return pool;
  }

  /** Room for one more flow of `pool`, letting completed records go first; else whose share is used. */
  private admit(pool: Pool, now: number): 'principal' | 'server' | undefined {
    const l = this.limits;
    if (pool.live >= l.maxFlowsPerPrincipal) return 'principal';
    while (pool.bytes + ENTRY_BYTES > l.maxBytesPerPrincipal && this.dropOldest(pool.completed));
    if (pool.bytes + ENTRY_BYTES > l.maxBytesPerPrincipal) return 'principal';
    if (this.flows.size >= l.maxFlows && now >= this.nextSweepAt) this.sweep(now);
    while (this.flows.size >= l.maxFlows && this.dropOldest(this.completedOrder));
    while (this.totalBytes + ENTRY_BYTES > l.maxBytes && this.dropOldest(this.completedOrder));
    if (this.flows.size >= l.maxFlows || this.totalBytes + ENTRY_BYTES > l.maxBytes) return 'server';
    return undefined;
  }

  /** After a record grew: completed records go (oldest first) until the shares fit again. */
  private trim(pool: Pool): void {
    while (pool.bytes > this.limits.maxBytesPerPrincipal && this.dropOldest(pool.completed));
    while (this.totalBytes > this.limits.maxBytes && this.dropOldest(this.completedOrder));
  }

  /** Lets the oldest completed flow of `order` go; false when there is none. */
  private dropOldest(order: CompletionQueue<FlowEntry>): boolean {
    const entry = order.shift();
    if (!entry) return false;
    this.horizon = Math.max(this.horizon, entry.completedAt);
    this.forget(entry.id, entry);
    return true;
  }

  private charge(entry: FlowEntry, bytes: number): void {
    entry.bytes += bytes;
    entry.owner.bytes += bytes;
    this.totalBytes += bytes;
  }

  private forget(flowId: string, entry: FlowEntry): void {
    this.flows.delete(flowId);
    entry.kept = false;
    // A queue may still point at the entry until it reaches the head: it must not hold the bytes.
    entry.onces = undefined;
    entry.resultJson = undefined;
    const pool = entry.owner;
    pool.bytes -= entry.bytes;
    this.totalBytes -= entry.bytes;
    if (entry.completed) {
      pool.completedCount--;
      this.completedCount--;
    } else {
      pool.live--;
    }
    if (pool.live === 0 && pool.completedCount === 0) this.pools.delete(pool.key);
  }

  private live(flowId: string, now: number): FlowEntry | undefined {
    const entry = this.flows.get(flowId);
    // A flow held under a live lease outlives its expiry: forgetting it would let a copy run beside it.
    if (entry && entry.expiresAt <= now && !leased(entry, now)) {
      this.forget(flowId, entry);
      return undefined;
    }
    return entry;
  }

  private held(flowId: string, holder: string): FlowEntry {
    const entry = this.flows.get(flowId);
    // Fenced by identity, not by the clock: a lapsed lease nobody took over still writes.
    if (entry?.holder !== holder) throw new FlowTakenOverError(flowId);
    return entry;
  }

  private sweep(now: number): void {
    this.nextSweepAt = now + 1000;
    // Values, not entries: no [id, entry] pair a record (a full store of 100 000 sweeps once a second).
    for (const entry of this.flows.values()) {
      if (entry.expiresAt <= now && !leased(entry, now)) this.forget(entry.id, entry);
    }
  }
}

function leased(entry: FlowEntry, now: number): boolean {
  return entry.holder !== undefined && entry.leaseUntil > now;
}
