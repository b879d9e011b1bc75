/** LeaseCounter for one process: a map of buckets, each a map of lease id to expiry. */
import { randomUUID } from 'node:crypto';
import type { Lease, LeaseCounter } from './lease-counter';

export class MemoryLeaseCounter implements LeaseCounter {
  private readonly buckets = new Map<string, Map<string, number>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Buckets tracked (an emptied one is forgotten). */
  get size(): number {
    return this.buckets.size;
  }

  async acquire(bucket: string, limit: number, ttlMs: number): Promise<Lease | undefined> {
    const now = this.now();
    const leases = this.buckets.get(bucket) ?? new Map<string, number>();
    for (const [id, until] of leases) if (until <= now) leases.delete(id);
    if (leases.size >= limit) {
      if (leases.size === 0) this.buckets.delete(bucket);
      return undefined;
    }
    const id = randomUUID();
    leases.set(id, now + ttlMs);
    this.buckets.set(bucket, leases);
    return { bucket, id };
  }

  async renew(lease: Lease, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const leases = this.buckets.get(lease.bucket);
    const until = leases?.get(lease.id);
    if (!leases || until === undefined || until <= now) {
      leases?.delete(lease.id);
      return false;
    }
    leases.set(lease.id, now + ttlMs);
    return true;
  }

  async release(lease: Lease): Promise<void> {
    const leases = this.buckets.get(lease.bucket);
    leases?.delete(lease.id);
    if (leases?.size === 0) this.buckets.delete(lease.bucket);
  }
}
