/** The LeaseCounter contract (memory, Redis): at most `limit` live leases per bucket; lapsed ones free their slot. */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LeaseCounter } from '../../../src/state/lease-counter';

export function leaseCounterContract(counter: () => LeaseCounter): void {
  const bucket = () => `b-${randomUUID()}`;

  test('up to the limit, then undefined; a release gives the slot back; buckets are separate', async () => {
    const c = counter();
    const b = bucket();
    const first = await c.acquire(b, 2, 60_000);
    const second = await c.acquire(b, 2, 60_000);
    expect(first).toEqual({ bucket: b, id: expect.any(String) });
    expect(second?.id).not.toBe(first?.id);
    expect(await c.acquire(b, 2, 60_000)).toBeUndefined();
    expect(await c.acquire(bucket(), 2, 60_000)).toBeDefined();
    await c.release(first!);
    await c.release(first!);
    expect(await c.acquire(b, 2, 60_000)).toBeDefined();
    expect(await c.acquire(b, 2, 60_000)).toBeUndefined();
  });

  test('a lapsed lease frees its slot and cannot be renewed; a live one renews', async () => {
    const c = counter();
    const b = bucket();
    const short = await c.acquire(b, 1, 1);
    expect(short).toBeDefined();
    await sleep(20);
    const next = await c.acquire(b, 1, 60_000);
    expect(next).toBeDefined();
    expect(await c.renew(short!, 60_000)).toBe(false);
    expect(await c.renew(next!, 60_000)).toBe(true);
    expect(await c.acquire(b, 1, 60_000)).toBeUndefined();
  });

  test('parallel acquires never exceed the limit', async () => {
    const c = counter();
    const b = bucket();
    const leases = await Promise.all(Array.from({ length: 12 }, () => c.acquire(b, 5, 60_000)));
    expect(leases.filter(Boolean)).toHaveLength(5);
  });
}
