/** The in-memory flow store: claims, records, completions, expiry, and its cap failing closed. */
import { MemoryFlowStore } from '../../../src/state/memory-flow-store';
import { flowStoreContract } from '../../helpers/contracts/flow-store';

function store(max = 3) {
  const clock = { t: 1_000 };
  return { clock, s: new MemoryFlowStore(max, () => clock.t) };
}

describe('the FlowStore contract', () => flowStoreContract(() => new MemoryFlowStore()));

test('a flow is forgotten after its expiry, but never while held', async () => {
  const { s, clock } = store();
  await s.claim('f', 'a', 2_000, 60_000);
  clock.t = 3_000;
  expect(await s.claim('f', 'b', 9_000, 60_000)).toEqual({ kind: 'busy' });
  await s.release('f', 'a');
  expect(await s.claim('f', 'b', 9_000, 60_000)).toEqual({ kind: 'claimed', onces: {} });
  await s.complete('f', 'b', 'r', 4_000);
  clock.t = 9_001;
  expect(await s.claim('f', 'c', 20_000, 60_000)).toEqual({ kind: 'claimed', onces: {} });
});

test('a hold is a lease: lapsed (its holder gone), it is taken over, and forgotten after the expiry', async () => {
  const { s, clock } = store();
  await s.claim('f', 'a', 2_000, 500);
  clock.t = 1_400;
  expect(await s.claim('f', 'b', 9_000, 500)).toEqual({ kind: 'busy' });
  expect(await s.renew('f', 'a', 500)).toBe(true);
  clock.t = 1_901;
  expect(await s.claim('f', 'b', 9_000, 500)).toEqual({ kind: 'claimed', onces: {}, tookOver: true });
  expect(await s.renew('f', 'a', 500)).toBe(false);
  await s.claim('g', 'a', 2_000, 500);
  clock.t = 3_000; // g expired and its lease lapsed: forgotten
  expect(await s.claim('g', 'c', 9_000, 500)).toEqual({ kind: 'claimed', onces: {} });
});

test('the cap refuses a new flow instead of evicting a live one; expired ones make room; tracked flows go on', async () => {
  const { s, clock } = store(2);
  await s.claim('f1', 'a', 5_000, 60_000);
  await s.recordOnce('f1', 'a', 'charge', { value: 'TD-1' }, 5_000);
  await s.release('f1', 'a');
  await s.claim('f2', 'a', 8_000, 60_000);
  await s.release('f2', 'a');
  expect(await s.claim('f3', 'a', 8_000, 60_000)).toEqual({ kind: 'full' });
  // The live flows keep their records and still work.
  expect(await s.claim('f1', 'b', 5_000, 60_000)).toEqual({ kind: 'claimed', onces: { charge: { value: 'TD-1' } } });
  await s.release('f1', 'b');
  clock.t = 6_000; // f1 expired: swept to make room
  expect(await s.claim('f3', 'a', 8_000, 60_000)).toEqual({ kind: 'claimed', onces: {} });
  expect(s.size).toBe(2);
});

test('a completion reads back as JSON would give it: primitives as they are, objects as copies', async () => {
  const s = new MemoryFlowStore();
  const object = { content: [{ type: 'text', text: 'hi' }], n: NaN };
  const cases: Array<[unknown, unknown]> = [
    ['text', 'text'],
    [0, 0],
    [false, false],
    [null, null],
    [NaN, null],
    [object, { content: [{ type: 'text', text: 'hi' }], n: null }],
    [undefined, undefined],
  ];
  for (const [i, [value, expected]] of cases.entries()) {
    await s.claim(`f${i}`, 'a', Date.now() + 60_000, 60_000);
    await s.complete(`f${i}`, 'a', value, Date.now() + 60_000);
    const claim = await s.claim(`f${i}`, 'b', Date.now() + 60_000, 60_000);
    expect(claim).toEqual({ kind: 'completed', result: expected });
    if (typeof value === 'object' && value !== null) expect((claim as { result: unknown }).result).not.toBe(value);
  }
  object.content[0]!.text = 'changed after completion';
  const again = await s.claim('f5', 'c', Date.now() + 60_000, 60_000);
  expect(again).toMatchObject({ result: { content: [{ text: 'hi' }] } });
});
