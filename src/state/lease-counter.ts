/**
 * Fleet-wide quotas (sessions, listen streams): at most `limit` live leases per bucket. A lease
 * lapses at its expiry unless renewed, so a slot held by an instance that died comes back on its
 * own. The memory implementation counts for one process; a shared one (Redis: a sorted set per
 * bucket scored by expiry) counts for the fleet.
 */
export interface Lease {
  readonly bucket: string;
  readonly id: string;
}

export interface LeaseCounter {
  /** A new lease when the bucket holds fewer than `limit` live ones; undefined when it is full. */
  acquire(bucket: string, limit: number, ttlMs: number): Promise<Lease | undefined>;
  /** Moves the lease's expiry to now + `ttlMs`; false when it already lapsed (the slot is lost). */
  renew(lease: Lease, ttlMs: number): Promise<boolean>;
  /** Gives the slot back (idempotent). */
  release(lease: Lease): Promise<void>;
}
