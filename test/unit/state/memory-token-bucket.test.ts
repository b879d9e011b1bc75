import { MemoryTokenBucket } from '../../../src/state/memory-token-bucket';
import { tokenBucketContract } from '../../helpers/contracts/token-bucket';

describe('the TokenBucketStore contract', () => tokenBucketContract(() => new MemoryTokenBucket()));

test('buckets that refilled to capacity are swept', async () => {
  const clock = { t: 0 };
  const s = new MemoryTokenBucket(() => clock.t, 1_000);
  await s.take('a', { capacity: 2, refillPerSecond: 1 });
  await s.take('b', { capacity: 2, refillPerSecond: 1 });
  expect(s.size).toBe(2);
  clock.t = 1_500; // both full again after 1 s
  await s.take('c', { capacity: 2, refillPerSecond: 1 });
  expect(s.size).toBe(1);
});
