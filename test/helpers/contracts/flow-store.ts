/**
 * The FlowStore contract every implementation passes (memory, Redis): one holder at a time, only
 * the holder writes, records are copies, a hold is a lease that lapses unless renewed. Ids are
 * unique per test so one shared store serves them all. Expiry and the cap are
 * implementation-specific and tested beside each implementation.
 */
import { randomUUID } from 'node:crypto';
import { FlowTakenOverError, type FlowStore } from '../../../src/state/flow-store';

export function flowStoreContract(store: () => FlowStore): void {
  const later = () => Date.now() + 60_000;
  const LEASE = 60_000;
  const id = () => `f-${randomUUID()}`;

  test('one holder at a time; the completion is what later claims get', async () => {
    const s = store();
    const f = id();
    expect(await s.claim(f, 'a', later(), LEASE)).toEqual({ kind: 'claimed', onces: {} });
    expect(await s.claim(f, 'b', later(), LEASE)).toEqual({ kind: 'busy' });
    await s.recordOnce(f, 'a', 'charge', { value: { id: 1 } }, later());
    await s.recordOnce(f, 'a', 'nothing', {}, later());
    await s.release(f, 'a');
    expect(await s.claim(f, 'b', later(), LEASE)).toEqual({
      kind: 'claimed',
      onces: { charge: { value: { id: 1 } }, nothing: {} },
    });
    await s.complete(f, 'b', { content: [{ type: 'text', text: 'done' }] }, later());
    expect(await s.claim(f, 'c', later(), LEASE)).toEqual({
      kind: 'completed',
      result: { content: [{ type: 'text', text: 'done' }] },
    });
  });

  test('the holder claims again and keeps its hold; a completion of undefined stays undefined', async () => {
    const s = store();
    const f = id();
    await s.claim(f, 'a', later(), LEASE);
    expect(await s.claim(f, 'a', later(), LEASE)).toEqual({ kind: 'claimed', onces: {} });
    await s.complete(f, 'a', undefined, later());
    expect(await s.claim(f, 'b', later(), LEASE)).toEqual({ kind: 'completed', result: undefined });
  });

  test('a completion given with its JSON text keeps that text: no second stringify (issue 34)', async () => {
    const s = store();
    const f = id();
    await s.claim(f, 'a', later(), LEASE);
    // The result itself could not be stringified (a BigInt): only the caller's text is recorded.
    await s.complete(f, 'a', { n: 10n }, later(), '{"content":[{"type":"text","text":"from the text"}]}');
    expect(await s.claim(f, 'b', later(), LEASE)).toEqual({
      kind: 'completed',
      result: { content: [{ type: 'text', text: 'from the text' }] },
    });
  });

  test('only the holder writes; releasing someone else\'s claim does nothing', async () => {
    const s = store();
    const f = id();
    await s.claim(f, 'a', later(), LEASE);
    await expect(s.recordOnce(f, 'b', 'k', {}, later())).rejects.toThrow(/not held/);
    await expect(s.complete(f, 'b', 'r', later())).rejects.toThrow(/not held/);
    await s.release(f, 'b');
    expect(await s.claim(f, 'b', later(), LEASE)).toEqual({ kind: 'busy' });
  });

  test('records are copies: mutating what was recorded or returned changes nothing stored', async () => {
    const s = store();
    const f = id();
    const value = { n: 1 };
    await s.claim(f, 'a', later(), LEASE);
    await s.recordOnce(f, 'a', 'k', { value }, later());
    value.n = 2;
    await s.release(f, 'a');
    const c = await s.claim(f, 'b', later(), LEASE);
    expect(c).toEqual({ kind: 'claimed', onces: { k: { value: { n: 1 } } } });
    if (c.kind === 'claimed') (c.onces.k as { value: { n: number } }).value.n = 3;
    await s.release(f, 'b');
    expect(await s.claim(f, 'c', later(), LEASE)).toEqual({ kind: 'claimed', onces: { k: { value: { n: 1 } } } });
  });

  test('parallel claims of one flow: exactly one holder', async () => {
    const s = store();
    const f = id();
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => s.claim(f, `h${i}`, later(), LEASE)));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'busy')).toHaveLength(19);
  });

  /** Claims until the other holder's 1 ms lease has lapsed (bounded; no fixed sleep). */
  async function claimAfterLapse(s: FlowStore, f: string, holder: string) {
    for (let i = 0; i < 1000; i++) {
      const c = await s.claim(f, holder, later(), LEASE);
      if (c.kind !== 'busy') return c;
      await new Promise((r) => setTimeout(r, 2));
    }
    throw new Error('the lease never lapsed');
  }

  test('a lapsed lease is taken over: the new holder gets the onces; the old one can no longer write', async () => {
    const s = store();
    const f = id();
    await s.claim(f, 'a', later(), 1);
    await s.recordOnce(f, 'a', 'charge', { value: 7 }, later());
    const taken = await claimAfterLapse(s, f, 'b');
    expect(taken).toEqual({ kind: 'claimed', onces: { charge: { value: 7 } }, tookOver: true });
    await expect(s.recordOnce(f, 'a', 'k', {}, later())).rejects.toThrow(FlowTakenOverError);
    await expect(s.complete(f, 'a', 'late', later())).rejects.toThrow(/took it over/);
    expect(await s.renew(f, 'a', LEASE)).toBe(false);
    await s.release(f, 'a'); // releasing a lost hold does nothing
    expect(await s.claim(f, 'c', later(), LEASE)).toEqual({ kind: 'busy' });
    await s.complete(f, 'b', 'first', later());
    expect(await s.claim(f, 'c', later(), LEASE)).toEqual({ kind: 'completed', result: 'first' });
  });

  test('a renewed lease stays held; a lapsed one nobody took over still lets its holder write', async () => {
    const s = store();
    const f = id();
    await s.claim(f, 'a', later(), 1);
    expect(await s.renew(f, 'a', LEASE)).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    expect(await s.claim(f, 'b', later(), LEASE)).toEqual({ kind: 'busy' });
    const g = id();
    await s.claim(g, 'a', later(), 1);
    await new Promise((r) => setTimeout(r, 5));
    await s.complete(g, 'a', 'kept', later());
    expect(await s.claim(g, 'b', later(), LEASE)).toEqual({ kind: 'completed', result: 'kept' });
  });
}
