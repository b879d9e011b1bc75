/** The SingleUseStore contract (memory, Redis): the first claim of an id wins, even in parallel. */
import { randomUUID } from 'node:crypto';
import type { SingleUseStore } from '../../../src/state/single-use-store';

export function singleUseStoreContract(store: () => SingleUseStore): void {
  const later = () => Date.now() + 60_000;

  test('the first claim of an id is true, every later one false; other ids are their own', async () => {
    const s = store();
    const id = randomUUID();
    expect(await s.claim(id, later())).toBe(true);
    expect(await s.claim(id, later())).toBe(false);
    expect(await s.claim(randomUUID(), later())).toBe(true);
  });

  test('parallel claims of one id: exactly one wins', async () => {
    const s = store();
    const id = randomUUID();
    const wins = await Promise.all(Array.from({ length: 20 }, () => s.claim(id, later())));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });
}
