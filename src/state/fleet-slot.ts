/**
 * A fleet-wide slot under two caps (one owner's share, and the total): a lease in each bucket of a
 * shared LeaseCounter, renewed every ttl/3 while held and released when given back. A lease held
 * by an instance that died lapses at its expiry, so its slot comes back on its own.
 */
import type { Lease, LeaseCounter } from './lease-counter';

/** Lease lifetime: renewed every third of it while the slot is held. */
export const FLEET_LEASE_TTL_MS = 30_000;

export interface FleetSlotRequest {
  /** e.g. `listen`, `session`: the buckets are `<kind>:total` and `<kind>:p:<id>` (`<kind>:anon`). */
  readonly kind: string;
  readonly principalId: string | undefined;
  readonly ownerLimit: number;
  readonly totalLimit: number;
  readonly ttlMs?: number;
  /** The slot could not be renewed (the store failed, or a lease lapsed); it is released. */
  onLost?(reason: unknown): void;
}

export interface FleetSlot {
  /**
   * Stops renewing and gives both leases back (idempotent; a failure is left to the TTL). Resolves
   * once the store answered, so a caller that freed the slot for someone else can ask again.
   */
  release(): Promise<void>;
}

/** Which cap refused: the owner's share, or the fleet's total. */
export type FleetRefusal = 'owner' | 'total';

/** Takes a slot, or says which cap is full; rejects when the store cannot answer. */
export async function takeFleetSlot(counter: LeaseCounter, r: FleetSlotRequest): Promise<FleetSlot | FleetRefusal> {
  const ttlMs = r.ttlMs ?? FLEET_LEASE_TTL_MS;
  const ownerBucket = r.principalId === undefined ? `${r.kind}:anon` : `${r.kind}:p:${r.principalId}`;
  const owner = await counter.acquire(ownerBucket, r.ownerLimit, ttlMs);
  if (!owner) return 'owner';
  let total: Lease | undefined;
  try {
    total = await counter.acquire(`${r.kind}:total`, r.totalLimit, ttlMs);
  } catch (e) {
    void counter.release(owner).catch(() => undefined);
    throw e;
  }
  if (!total) {
    void counter.release(owner).catch(() => undefined);
    return 'total';
  }
  return holdSlot(counter, [owner, total], ttlMs, r.onLost);
}

function holdSlot(
  counter: LeaseCounter,
  leases: readonly Lease[],
  ttlMs: number,
  onLost: ((reason: unknown) => void) | undefined,
): FleetSlot {
  let released: Promise<void> | undefined;
  const release = () => {
    if (released) return released;
    clearInterval(timer);
    released = Promise.all(leases.map((l) => counter.release(l).catch(() => undefined))).then(() => undefined);
    return released;
  };
  const renew = async () => {
    try {
      const kept = await Promise.all(leases.map((l) => counter.renew(l, ttlMs)));
      if (kept.every(Boolean) || released) return;
      throw new Error('a fleet quota lease lapsed before it was renewed');
    } catch (e) {
      if (released) return;
      void release();
      onLost?.(e);
    }
  };
  const timer = setInterval(() => void renew(), Math.max(Math.floor(ttlMs / 3), 1));
  timer.unref?.();
  return { release };
}
