import { createRandomIds, createRandomPool } from '../../../src/state/random-pool';

describe('random pool', () => {
  it('hands out each byte once: bytes kept by a caller survive the refills after them', () => {
    const random = createRandomPool();
    const first = random(16);
    const kept = Buffer.from(first);
    const drawn = Array.from({ length: 1000 }, () => random(16).toString('hex')); // ~4 refills of 4 KiB
    expect(first.equals(kept)).toBe(true);
    expect(new Set([kept.toString('hex'), ...drawn]).size).toBe(1001);
    expect(random(5000)).toHaveLength(5000);
  });

  it('ids are base64url text of fresh bytes, distinct across refills', () => {
    const randomId = createRandomIds();
    const ids = Array.from({ length: 1000 }, () => randomId(16));
    expect(ids.every((id) => /^[A-Za-z0-9_-]{22}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(1000);
  });
});
