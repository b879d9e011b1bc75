/**
 * The default FlowStore: one process. Bounded by `maxFlows`; when full of live flows it refuses
 * new ones (`full`) rather than evicting one, because a forgotten flow would run its effects again
 * (eviction that fails open). Expired flows are swept first.
 */
import { FlowTakenOverError, type FlowClaim, type FlowStore, type OnceRecord } from './flow-store';

interface FlowEntry {
  expiresAt: number;
  holder?: string;
  /** When the holder's lease lapses (epoch ms) unless renewed. */
  leaseUntil: number;
  /** Made on the first `ctx.once` record: most flows have none. JSON text, see `frozen`. */
  onces?: Record<string, string>;
  /** A JSON primitive as it is (nothing to copy or alias); anything else as JSON text, see `frozen`. */
  completed?: { value: unknown } | { json: string | undefined };
}

export const DEFAULT_MAX_TRACKED_FLOWS = 100_000;

/**
 * Values are kept as JSON text: what a shared store would give back, and no aliasing with the
 * handler's objects. Written once, parsed only when read back (a retry), which most flows never do.
 */
function frozen(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

/** A completion that reads back as itself: a string, a boolean, a finite number or null needs no JSON copy. */
function completion(value: unknown): { value: unknown } | { json: string | undefined } {
  const t = typeof value;
  return value === null || t === 'string' || t === 'boolean' || (t === 'number' && Number.isFinite(value))
    ? { value }
    : { json: frozen(value) };
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
  /** A full store sweeps at most once a second: a flood of new flows must not buy an O(n) scan each. */
  private nextSweepAt = 0;

  constructor(
    readonly maxFlows: number = DEFAULT_MAX_TRACKED_FLOWS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Flows tracked right now (live or not yet swept). */
  get size(): number {
    return this.flows.size;
  }

  async claim(flowId: string, holder: string, expiresAtMs: number, leaseMs: number): Promise<FlowClaim> {
    const now = this.now();
    let entry = this.live(flowId, now);
    if (entry?.completed) {
      const done = entry.completed;
      return { kind: 'completed', result: 'value' in done ? done.value : thawed(done.json) };
    }
    const other = entry?.holder !== undefined && entry.holder !== holder;
    if (other && entry!.leaseUntil > now) return { kind: 'busy' };
    if (!entry) {
      if (this.flows.size >= this.maxFlows && now >= this.nextSweepAt) this.sweep(now);
      if (this.flows.size >= this.maxFlows) return { kind: 'full' };
      entry = { expiresAt: expiresAtMs, leaseUntil: 0 };
      this.flows.set(flowId, entry);
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
    (entry.onces ??= Object.create(null) as Record<string, string>)[key] = JSON.stringify(record);
    entry.expiresAt = Math.max(entry.expiresAt, expiresAtMs);
  }

  async complete(flowId: string, holder: string, result: unknown, expiresAtMs: number): Promise<void> {
    const entry = this.held(flowId, holder);
    entry.completed = completion(result);
    entry.holder = undefined;
    entry.expiresAt = Math.max(entry.expiresAt, expiresAtMs);
  }

  async release(flowId: string, holder: string): Promise<void> {
    const entry = this.flows.get(flowId);
    if (entry?.holder === holder) entry.holder = undefined;
  }

  private live(flowId: string, now: number): FlowEntry | undefined {
    const entry = this.flows.get(flowId);
    // A flow held under a live lease outlives its expiry: forgetting it would let a copy run beside it.
    if (entry && entry.expiresAt <= now && !leased(entry, now)) {
      this.flows.delete(flowId);
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
    for (const [id, entry] of this.flows)
      if (entry.expiresAt <= now && !leased(entry, now)) this.flows.delete(id);
  }
}

function leased(entry: FlowEntry, now: number): boolean {
  return entry.holder !== undefined && entry.leaseUntil > now;
}
