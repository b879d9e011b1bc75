/**
 * The ApprovalStore contract (memory, Redis): caps per caller and overall, one holder at a time, an
 * answer recorded once per page, completion only by the holder, and expiry.
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalFlowLimits, ApprovalStore, NewApprovalFlow, StoredPage } from '../../../src/state/approval-store';

const LIMITS: ApprovalFlowLimits = { maxFlows: 1_000, maxFlowsPerCaller: 3, maxPagesPerFlow: 2 };

function newFlow(over: Partial<NewApprovalFlow> = {}): NewApprovalFlow {
  return {
    id: randomUUID(),
    principal: `user-${randomUUID()}`,
    tool: 'book',
    argsDigest: 'd1',
    args: { to: 'Oslo', seats: 2 },
    expiresAt: Date.now() + 60_000,
    ...over,
  };
}

function page(key = 'confirm'): StoredPage {
  return {
    nonce: randomUUID(),
    key,
    fingerprint: `fp-${key}`,
    request: { method: 'elicitation/create', params: { mode: 'form', message: 'Book?', requestedSchema: {} } },
  } as StoredPage;
}

export function approvalStoreContract(store: () => ApprovalStore): void {
  test('a flow added is read back with its binding; an unknown id is undefined', async () => {
    const s = store();
    const flow = newFlow();
    expect(await s.add(flow, LIMITS)).toBeUndefined();
    expect(await s.get(flow.id)).toMatchObject({ ...flow, answers: {}, onces: {}, pages: {} });
    expect(await s.get(randomUUID())).toBeUndefined();
  });

  test('per-caller cap: the fourth open flow of one caller is refused, another caller is not', async () => {
    const s = store();
    const principal = `cap-${randomUUID()}`;
    for (let i = 0; i < 3; i++) expect(await s.add(newFlow({ principal }), LIMITS)).toBeUndefined();
    expect(await s.add(newFlow({ principal }), LIMITS)).toMatch(/too many approvals open for this caller/);
    expect(await s.add(newFlow(), LIMITS)).toBeUndefined();
  });

  test('one holder at a time, in parallel too; released, the next call holds it', async () => {
    const s = store();
    const flow = newFlow();
    await s.add(flow, LIMITS);
    const wins = await Promise.all(Array.from({ length: 10 }, (_, i) => s.hold(flow.id, `h${i}`)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const winner = `h${wins.indexOf(true)}`;
    await s.release(flow.id, 'not-the-holder');
    expect(await s.hold(flow.id, 'other')).toBe(false);
    await s.release(flow.id, winner);
    expect(await s.hold(flow.id, 'other')).toBe(true);
  });

  test('a page answer is recorded once (in parallel too), under its key and fingerprint', async () => {
    const s = store();
    const flow = newFlow();
    await s.add(flow, LIMITS);
    const p = page();
    expect(await s.addPage(flow.id, p, LIMITS.maxPagesPerFlow)).toBe(true);
    const answer = (n: number) => s.recordAnswer(flow.id, p.nonce, { action: 'accept', n });
    const answers = await Promise.all([1, 2, 3, 4].map(answer));
    expect(answers.filter(Boolean)).toHaveLength(1);
    const read = await s.get(flow.id);
    expect(read?.pages[p.nonce]?.answered).toBeTruthy();
    expect(read?.answers.confirm?.fingerprint).toBe('fp-confirm');
    expect(read?.answers.confirm?.answer).toEqual({ action: 'accept', n: answers.indexOf(true) + 1 });
    expect(await s.recordAnswer(flow.id, randomUUID(), { action: 'accept' })).toBe(false);
  });

  test('pages past the cap are refused', async () => {
    const s = store();
    const flow = newFlow();
    await s.add(flow, LIMITS);
    expect(await s.addPage(flow.id, page('a'), 2)).toBe(true);
    expect(await s.addPage(flow.id, page('b'), 2)).toBe(true);
    expect(await s.addPage(flow.id, page('c'), 2)).toBe(false);
  });

  test('once results are kept; only the holder completes; a completed flow is not held, answered or open', async () => {
    const s = store();
    const flow = newFlow();
    await s.add(flow, LIMITS);
    const p = page();
    await s.addPage(flow.id, p, 2);
    expect(await s.hold(flow.id, 'me')).toBe(true);
    await s.recordOnce(flow.id, 'charge', { value: { receipt: 'r-1' } });
    await s.recordOnce(flow.id, 'nothing', {});
    expect((await s.get(flow.id))?.onces).toEqual({ charge: { value: { receipt: 'r-1' } }, nothing: {} });
    expect(await s.openFor(flow.principal!, 'book', 'd1')).toMatchObject({ id: flow.id });
    expect(await s.openFor(flow.principal!, 'book', 'other-digest')).toBeUndefined();
    await s.complete(flow.id, 'someone-else', 'nope');
    expect((await s.get(flow.id))?.completed).toBeUndefined();
    await s.complete(flow.id, 'me', { content: [{ type: 'text', text: 'booked' }] });
    const done = await s.get(flow.id);
    expect(done?.completed).toEqual({ result: { content: [{ type: 'text', text: 'booked' }] } });
    expect(done?.holder).toBeUndefined();
    expect(await s.hold(flow.id, 'again')).toBe(false);
    expect(await s.recordAnswer(flow.id, p.nonce, { action: 'accept' })).toBe(false);
    expect(await s.openFor(flow.principal!, 'book', 'd1')).toBeUndefined();
  });

  test('an expired flow is gone and frees its caller slot', async () => {
    const s = store();
    const principal = `exp-${randomUUID()}`;
    const soon = newFlow({ principal, expiresAt: Date.now() + 150 });
    await s.add(soon, { ...LIMITS, maxFlowsPerCaller: 1 });
    const one = { ...LIMITS, maxFlowsPerCaller: 1 };
    expect(await s.add(newFlow({ principal }), one)).toMatch(/too many/);
    await until(async () => (await s.get(soon.id)) === undefined);
    expect(await s.hold(soon.id, 'late')).toBe(false);
    expect(await s.add(newFlow({ principal }), one)).toBeUndefined();
  });
}

/** Polls a condition (expiry has no event to wait on); the deadline is only a safety net. */
async function until(check: () => Promise<boolean>, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met before the safety deadline');
    await new Promise((r) => setTimeout(r, 25));
  }
}
