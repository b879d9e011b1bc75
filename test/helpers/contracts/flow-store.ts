/**
 * The FlowStore contract every implementation passes (memory, Redis): one holder at a time, only the
 * holder writes, records are copies. Ids are unique per test so one shared store serves them all.
 * Expiry and the cap are implementation-specific and tested beside each implementation.
 */
import { randomUUID } from 'node:crypto';
import type { FlowStore } from '../../../src/state/flow-store';

export function flowStoreContract(store: () => FlowStore): void {
  const later = () => Date.now() + 60_000;
  const id = () => `f-${randomUUID()}`;

  test('one holder at a time; the completion is what later claims get', async () => {
    const s = store();
    const f = id();
    expect(await s.claim(f, 'a', later())).toEqual({ kind: 'claimed', onces: {} });
    expect(await s.claim(f, 'b', later())).toEqual({ kind: 'busy' });
    await s.recordOnce(f, 'a', 'charge', { value: { id: 1 } }, later());
    await s.recordOnce(f, 'a', 'nothing', {}, later());
    await s.release(f, 'a');
    expect(await s.claim(f, 'b', later())).toEqual({
      kind: 'claimed',
      onces: { charge: { value: { id: 1 } }, nothing: {} },
    });
    await s.complete(f, 'b', { content: [{ type: 'text', text: 'done' }] }, later());
    expect(await s.claim(f, 'c', later())).toEqual({
      kind: 'completed',
      result: { content: [{ type: 'text', text: 'done' }] },
    });
  });

  test('the holder claims again and keeps its hold; a completion of undefined stays undefined', async () => {
    const s = store();
    const f = id();
    await s.claim(f, 'a', later());
    expect(await s.claim(f, 'a', later())).toEqual({ kind: 'claimed', onces: {} });
    await s.complete(f, 'a', undefined, later());
    expect(await s.claim(f, 'b', later())).toEqual({ kind: 'completed', result: undefined });
  });

  test('only the holder writes; releasing someone else\'s claim does nothing', async () => {
    const s = store();
    const f = id();
    await s.claim(f, 'a', later());
    await expect(s.recordOnce(f, 'b', 'k', {}, later())).rejects.toThrow(/not held/);
    await expect(s.complete(f, 'b', 'r', later())).rejects.toThrow(/not held/);
    await s.release(f, 'b');
    expect(await s.claim(f, 'b', later())).toEqual({ kind: 'busy' });
  });

  test('records are copies: mutating what was recorded or returned changes nothing stored', async () => {
    const s = store();
    const f = id();
    const value = { n: 1 };
    await s.claim(f, 'a', later());
    await s.recordOnce(f, 'a', 'k', { value }, later());
    value.n = 2;
    await s.release(f, 'a');
    const c = await s.claim(f, 'b', later());
    expect(c).toEqual({ kind: 'claimed', onces: { k: { value: { n: 1 } } } });
    if (c.kind === 'claimed') (c.onces.k as { value: { n: number } }).value.n = 3;
    await s.release(f, 'b');
    expect(await s.claim(f, 'c', later())).toEqual({ kind: 'claimed', onces: { k: { value: { n: 1 } } } });
  });

  test('parallel claims of one flow: exactly one holder', async () => {
    const s = store();
    const f = id();
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => s.claim(f, `h${i}`, later())));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'busy')).toHaveLength(19);
  });
}
