/**
 * Rate limiting for the guards (a token bucket per key): a bucket holds up to `capacity` tokens
 * and refills at `refillPerSecond`; a call takes `cost` tokens (default 1) or is refused with the
 * time until enough have refilled. A shared store (Redis) makes the limit hold across a fleet.
 */
export interface TokenBucketRule {
  capacity: number;
  refillPerSecond: number;
  /** Tokens this call takes; default 1; at most `capacity`. */
  cost?: number;
}

export interface TokenBucketResult {
  allowed: boolean;
  /** Whole tokens left after this call. */
  remaining: number;
  /** 0 when allowed; else how long until `cost` tokens are there. */
  retryAfterMs: number;
}

export interface TokenBucketStore {
  take(key: string, rule: TokenBucketRule): Promise<TokenBucketResult>;
}

/** The rule with its default cost, or a RangeError naming what is wrong. */
export function checkedRule(rule: TokenBucketRule): Required<TokenBucketRule> {
  const { capacity, refillPerSecond, cost = 1 } = rule;
  if (!(capacity > 0) || !Number.isFinite(capacity))
    throw new RangeError(`token bucket: capacity must be a positive number, got ${capacity}`);
  if (!(refillPerSecond > 0) || !Number.isFinite(refillPerSecond))
    throw new RangeError(`token bucket: refillPerSecond must be a positive number, got ${refillPerSecond}`);
  if (!(cost >= 0) || cost > capacity)
    throw new RangeError(`token bucket: cost must be between 0 and capacity (${capacity}), got ${cost}`);
  return { capacity, refillPerSecond, cost };
}

/** One step of the bucket: refill since `at`, then take `cost` if there is enough. */
export function takeTokens(
  tokens: number,
  at: number,
  now: number,
  rule: Required<TokenBucketRule>,
): { tokens: number; result: TokenBucketResult } {
  const refilled = Math.min(rule.capacity, tokens + (Math.max(0, now - at) * rule.refillPerSecond) / 1000);
  if (refilled >= rule.cost) {
    const left = refilled - rule.cost;
    return { tokens: left, result: { allowed: true, remaining: Math.floor(left), retryAfterMs: 0 } };
  }
  const retryAfterMs = Math.ceil(((rule.cost - refilled) * 1000) / rule.refillPerSecond);
  return { tokens: refilled, result: { allowed: false, remaining: Math.floor(refilled), retryAfterMs } };
}
