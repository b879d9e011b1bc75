/**
 * The in-memory flow store: claims, records, completions, expiry, its caps failing closed, and its
 * pools (issue 31, N5): per-principal shares, completion records let go oldest first under
 * pressure, and a retry of one let go refused as expired, never run again.
 */
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
  expect(await s.claim('f3', 'a', 8_000, 60_000)).toEqual({ kind: 'full', scope: 'server' });
  // The live flows keep their records and still work.
  expect(await s.claim('f1', 'b', 5_000, 60_000)).toEqual({ kind: 'claimed', onces: { charge: { value: 'TD-1' } } });
  await s.release('f1', 'b');
  clock.t = 6_000; // f1 expired: swept to make room
  expect(await s.claim('f3', 'a', 8_000, 60_000)).toEqual({ kind: 'claimed', onces: {} });
  expect(s.size).toBe(2);
});

/** A two-round flow as the engine runs it: registered at round 1, completed at round 2. */
async function twoRounds(s: MemoryFlowStore, id: string, owner: string | undefined, t: number, result: unknown = 'ok') {
  expect(await s.claim(id, 'h1', t + 60_000, 60_000, owner)).toEqual({ kind: 'claimed', onces: {} });
  await s.release(id, 'h1');
  expect((await s.claim(id, 'h2', t + 60_000, 60_000, owner, t)).kind).toBe('claimed');
  await s.complete(id, 'h2', result, t + 60_000);
}

test('one principal filling its share of unfinished flows is refused; another is not', async () => {
  const clock = { t: 1_000 };
  const s = new MemoryFlowStore({ maxFlows: 100, maxFlowsPerPrincipal: 3 }, () => clock.t);
  for (let i = 0; i < 3; i++) expect((await s.claim(`m${i}`, 'h', 60_000, 60_000, 'mallory')).kind).toBe('claimed');
  expect(await s.claim('m3', 'h', 60_000, 60_000, 'mallory')).toEqual({ kind: 'full', scope: 'principal' });
  expect((await s.claim('a0', 'h', 60_000, 60_000, 'ada')).kind).toBe('claimed');
  // Anonymous callers share one pool of their own.
  for (let i = 0; i < 3; i++) expect((await s.claim(`x${i}`, 'h', 60_000, 60_000)).kind).toBe('claimed');
  expect(await s.claim('x3', 'h', 60_000, 60_000)).toEqual({ kind: 'full', scope: 'principal' });
  // Finishing one frees its slot.
  await s.complete('m0', 'h', 'done', 60_000);
  expect((await s.claim('m3', 'h', 60_000, 60_000, 'mallory')).kind).toBe('claimed');
});

test('under pressure the oldest completion records go; a retry of one is expired, of a kept one completed', async () => {
  const clock = { t: 1_000 };
  const s = new MemoryFlowStore({ maxFlows: 3 }, () => clock.t);
  for (let i = 0; i < 5; i++) {
    clock.t += 10;
    await twoRounds(s, `f${i}`, 'ada', clock.t, `result-${i}`);
  }
  expect(s.size).toBe(3);
  // f0 and f1 were let go: their retries are refused, never claimed (that would run them again).
  expect(await s.claim('f0', 'r', 99_000, 60_000, 'ada', 1_010)).toEqual({ kind: 'expired' });
  expect(await s.claim('f1', 'r', 99_000, 60_000, 'ada', 1_020)).toEqual({ kind: 'expired' });
  expect(await s.claim('f4', 'r', 99_000, 60_000, 'ada', 1_050)).toEqual({ kind: 'completed', result: 'result-4' });
  // A flow that started after everything let go, and is not here, was never here: the store-lost
  // fallback (the sealed onces) goes on as before.
  expect((await s.claim('elsewhere', 'r', 99_000, 60_000, 'ada', clock.t + 1)).kind).toBe('claimed');
});

test('bytes: a principal over its byte share loses its own oldest completion records, not another principal', async () => {
  const clock = { t: 1_000 };
  const s = new MemoryFlowStore({ maxBytesPerPrincipal: 100_000, maxBytes: 10_000_000 }, () => clock.t);
  await twoRounds(s, 'ada-1', 'ada', clock.t, 'small');
  for (let i = 0; i < 10; i++) {
    clock.t += 10;
    await twoRounds(s, `big-${i}`, 'mallory', clock.t, 'x'.repeat(30_000));
  }
  expect(s.bytes).toBeLessThan(100_000 + 2_000);
  expect(await s.claim('ada-1', 'r', 99_000, 60_000, 'ada', 1_000)).toEqual({ kind: 'completed', result: 'small' });
  expect(await s.claim('big-0', 'r', 99_000, 60_000, 'mallory', 1_010)).toEqual({ kind: 'expired' });
  expect(await s.claim('big-9', 'r', 99_000, 60_000, 'mallory', 1_100)).toMatchObject({ kind: 'completed' });
});

test('once-results count while live and are dropped at completion; an expired record gives its bytes back', async () => {
  const clock = { t: 1_000 };
  const s = new MemoryFlowStore({}, () => clock.t);
  await s.claim('f', 'h', 5_000, 60_000, 'ada');
  const empty = s.bytes;
  await s.recordOnce('f', 'h', 'charge', { value: 'y'.repeat(5_000) }, 5_000);
  expect(s.bytes).toBeGreaterThan(empty + 5_000);
  await s.complete('f', 'h', 'done', 5_000);
  expect(s.bytes).toBeLessThan(empty + 100);
  clock.t = 6_000; // expired: the next claim of it is a new flow, and the old record's bytes are gone
  expect(await s.claim('f', 'x', 20_000, 60_000, 'ada')).toEqual({ kind: 'claimed', onces: {} });
  expect(s.size).toBe(1);
  expect(s.bytes).toBe(empty);
});

test('a flood of two-round flows far past maxTrackedFlows never fills the store, and memory stays bounded', async () => {
  const clock = { t: 1_000 };
  const s = new MemoryFlowStore({ maxFlows: 1_000 }, () => clock.t);
  const refused: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    if (i % 100 === 0) clock.t += 1;
    const id = `f${i}`;
    const owner = i % 2 ? 'ada' : undefined;
    const first = await s.claim(id, 'h1', clock.t + 60_000, 60_000, owner);
    if (first.kind !== 'claimed') refused.push(first.kind);
    await s.release(id, 'h1');
    const second = await s.claim(id, 'h2', clock.t + 60_000, 60_000, owner, clock.t);
    if (second.kind !== 'claimed') refused.push(second.kind);
    else await s.complete(id, 'h2', 'ok', clock.t + 60_000);
  }
  expect(refused).toEqual([]);
  expect(s.size).toBeLessThanOrEqual(1_000);
  expect(s.bytes).toBeLessThan(1_000 * 400);
});
