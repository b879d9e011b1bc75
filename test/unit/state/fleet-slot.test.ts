/**
 * takeFleetSlot: a lease in the owner's bucket and one in the total bucket, which cap refused,
 * nothing kept on a refusal, renewals while held, and onLost (with both leases given back) when a
 * lease lapsed before its renewal.
 */
import { takeFleetSlot } from '../../../src/state/fleet-slot';
import { MemoryLeaseCounter } from '../../../src/state/memory-lease-counter';
import { waitFor } from '../../helpers/http-fixtures';

const request = { kind: 'k', ownerLimit: 1, totalLimit: 2 };

test('owner and total caps; a refusal keeps nothing; release gives both leases back', async () => {
  const leases = new MemoryLeaseCounter();
  const alice = await takeFleetSlot(leases, { ...request, principalId: 'alice' });
  expect(typeof alice).toBe('object');
  expect(await takeFleetSlot(leases, { ...request, principalId: 'alice' })).toBe('owner');
  const anon = await takeFleetSlot(leases, { ...request, principalId: undefined });
  expect(typeof anon).toBe('object');
  expect(await takeFleetSlot(leases, { ...request, principalId: 'bob' })).toBe('total');
  expect(leases.size).toBe(3); // alice's, the anonymous and the total bucket: bob's refused lease is gone
  for (const s of [alice, anon]) if (typeof s === 'object') s.release();
  await waitFor(() => leases.size === 0);
});

test('a lease that lapsed before its renewal: onLost, and the slot is given back', async () => {
  let now = 0;
  const leases = new MemoryLeaseCounter(() => now);
  const lost: unknown[] = [];
  const slot = await takeFleetSlot(leases, {
    ...request,
    principalId: 'alice',
    ttlMs: 30,
    onLost: (e) => lost.push(e),
  });
  expect(typeof slot).toBe('object');
  now = 1000; // the counter's clock moves past the expiry: the next renewal finds the lease lapsed
  await waitFor(() => lost.length === 1);
  expect(String(lost[0])).toContain('lapsed');
  await waitFor(() => leases.size === 0);
});
