/**
 * TokenBucketStore for one process. A bucket that has refilled to capacity is the same as no
 * bucket, so a sweep (at most every `sweepIntervalMs`) forgets those: memory follows active keys.
 */
import {
  checkedRule,
  takeTokens,
  type TokenBucketResult,
  type TokenBucketRule,
  type TokenBucketStore,
} from './token-bucket';

interface Bucket {
  tokens: number;
  at: number;
  /** When it is full again (and can be forgotten). */
  fullAt: number;
}

export class MemoryTokenBucket implements TokenBucketStore {
  private readonly buckets = new Map<string, Bucket>();
  private nextSweepAt = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly sweepIntervalMs = 10_000,
  ) {}

  get size(): number {
    return this.buckets.size;
  }

  async take(key: string, rule: TokenBucketRule): Promise<TokenBucketResult> {
    const checked = checkedRule(rule);
    const now = this.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    const bucket = this.buckets.get(key);
    const step = takeTokens(bucket?.tokens ?? checked.capacity, bucket?.at ?? now, now, checked);
    const fullAt = now + ((checked.capacity - step.tokens) * 1000) / checked.refillPerSecond;
    this.buckets.set(key, { tokens: step.tokens, at: now, fullAt });
    return step.result;
  }

  private sweep(now: number): void {
    this.nextSweepAt = now + this.sweepIntervalMs;
    for (const [key, bucket] of this.buckets) if (bucket.fullAt <= now) this.buckets.delete(key);
  }
}
