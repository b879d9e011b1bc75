import { MemoryLeaseCounter } from '../../../src/state/memory-lease-counter';
import { leaseCounterContract } from '../../helpers/contracts/lease-counter';

describe('the LeaseCounter contract', () => leaseCounterContract(() => new MemoryLeaseCounter()));

test('an emptied bucket is forgotten', async () => {
  const c = new MemoryLeaseCounter();
  const lease = await c.acquire('b', 1, 60_000);
  await c.release(lease!);
  expect(c.size).toBe(0);
});
