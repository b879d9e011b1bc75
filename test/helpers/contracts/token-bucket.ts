/** The TokenBucketStore contract (memory, Redis): capacity, cost, refusal with retryAfterMs, refill, bad rules. */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TokenBucketStore } from '../../../src/state/token-bucket';

export function tokenBucketContract(store: () => TokenBucketStore): void {
  const key = () => `k-${randomUUID()}`;
  const slow = { capacity: 3, refillPerSecond: 0.001 };

  test('a full bucket gives `capacity` tokens, then refuses with the time until one is back', async () => {
    const s = store();
    const k = key();
    expect(await s.take(k, slow)).toEqual({ allowed: true, remaining: 2, retryAfterMs: 0 });
    expect(await s.take(k, slow)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
    expect(await s.take(k, slow)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    const refused = await s.take(k, slow);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterMs).toBeGreaterThan(900_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(1_000_000);
    expect((await s.take(key(), slow)).allowed).toBe(true);
  });

  test('cost takes several tokens; a refused take takes none', async () => {
    const s = store();
    const k = key();
    expect(await s.take(k, { ...slow, cost: 2 })).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
    expect((await s.take(k, { ...slow, cost: 2 })).allowed).toBe(false);
    expect(await s.take(k, { ...slow, cost: 1 })).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
  });

  test('tokens come back at refillPerSecond', async () => {
    const s = store();
    const k = key();
    const fast = { capacity: 1, refillPerSecond: 1000 };
    expect((await s.take(k, fast)).allowed).toBe(true);
    await sleep(20);
    expect((await s.take(k, fast)).allowed).toBe(true);
  });

  test('parallel takes never give more than capacity', async () => {
    const s = store();
    const k = key();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => s.take(k, { capacity: 5, refillPerSecond: 0.001 })),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  test('a rule that can never pass is refused up front', async () => {
    const s = store();
    await expect(s.take(key(), { capacity: 2, refillPerSecond: 1, cost: 3 })).rejects.toThrow(RangeError);
    await expect(s.take(key(), { capacity: 0, refillPerSecond: 1 })).rejects.toThrow(/capacity/);
    await expect(s.take(key(), { capacity: 1, refillPerSecond: 0 })).rejects.toThrow(/refillPerSecond/);
  });
}
