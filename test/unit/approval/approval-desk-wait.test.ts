/**
 * PageApprovalDesk, the URL-mode part: a question already on a page keeps its link; a call waiting
 * for the page's answer is woken when it is recorded here, reads a shared store (a fleet: answered
 * on another instance), and gives up at its deadline or on abort with nothing recorded.
 */
import { PageApprovalDesk } from '../../../src/approval/approval-desk';
import { MemoryApprovalStore } from '../../../src/approval/approval-flows';
import type { ApprovalStore } from '../../../src/state/approval-store';
import type { ApprovalFlowHandle } from '../../../src/context/ask-fallback';
import { createRequestStateCodec } from '../../../src/state';

const QUESTION = {
  key: 'confirm',
  fingerprint: 'fp-1',
  request: { method: 'elicitation/create', params: { mode: 'form', message: 'Go?', requestedSchema: {} } },
  check: (answer: unknown) => ({ ok: true as const, kept: answer }),
} as const;

/** One key ring, as the instances of a fleet share one. */
const codec = createRequestStateCodec({});

function desk(store?: ApprovalStore) {
  return new PageApprovalDesk({
    codec,
    lifetimeMs: 60_000,
    baseUrl: 'http://127.0.0.1:1/mcp/approval',
    store,
    pollMs: 20,
  });
}

/** Answers a page as the route does: open the link's token, record the checked answer. */
async function answer(d: PageApprovalDesk, url: string, value: unknown): Promise<boolean> {
  const opened = await d.openPage(url.slice(url.lastIndexOf('/') + 1));
  if (!opened.ok) throw new Error(opened.reason);
  return d.recordAnswer(opened.flow, opened.page, value);
}

async function started(d: PageApprovalDesk): Promise<{ flow: ApprovalFlowHandle; url: string }> {
  const flow = await d.start({ tool: 'book', args: { id: 1 } });
  const page = await flow.ask(QUESTION);
  return { flow, url: page.url };
}

test('a question on a page keeps its link; an answered one has none', async () => {
  const d = desk();
  const { flow, url } = await started(d);
  expect(flow.page('confirm', 'fp-1')?.url).toBe(url);
  expect(flow.page('confirm', 'other-question')).toBeUndefined();
  expect(await answer(d, url, { action: 'accept' })).toBe(true);
  const resumed = await d.resume({ tool: 'book', args: { id: 1 } }, flow.id);
  await flow.release();
  const again = await d.resume({ tool: 'book', args: { id: 1 } }, flow.id);
  expect(resumed).toMatchObject({ kind: 'refused' }); // held by the first call until it let go
  if (again?.kind !== 'flow') throw new Error('the flow should continue');
  expect(again.flow.page('confirm', 'fp-1')).toBeUndefined();
  expect(again.flow.answer('confirm', 'fp-1')).toEqual({ action: 'accept' });
});

test('a waiting call is woken by the answer recorded here', async () => {
  const d = desk();
  const { flow, url } = await started(d);
  const waiting = flow.waitAnswer('confirm', 'fp-1', { timeoutMs: 60_000 });
  await answer(d, url, { action: 'accept', content: { confirm: true } });
  expect(await waiting).toEqual({ action: 'accept', content: { confirm: true } });
  // The call's own view now has it.
  expect(flow.answer('confirm', 'fp-1')).toEqual({ action: 'accept', content: { confirm: true } });
});

/** A store shared the way a fleet's is (any store but the per-process one is read again while waiting). */
function sharedStore(memory: MemoryApprovalStore, get?: ApprovalStore['get']): ApprovalStore {
  return {
    add: (f, l) => memory.add(f, l),
    get: get ?? ((id) => memory.get(id)),
    openFor: (p, t, a) => memory.openFor(p, t, a),
    hold: (id, h) => memory.hold(id, h),
    addPage: (id, p, m) => memory.addPage(id, p, m),
    recordAnswer: (id, n, a) => memory.recordAnswer(id, n, a),
    recordOnce: (id, k, o) => memory.recordOnce(id, k, o),
    complete: (id, h, r) => memory.complete(id, h, r),
    release: (id, h) => memory.release(id, h),
  };
}

test('an answer recorded here between the read and the wait still wakes the call (no poll to save it)', async () => {
  const memory = new MemoryApprovalStore();
  let meanwhile: (() => Promise<unknown>) | undefined;
  // The read returns what was there, then the page is answered before the call starts waiting.
  const store = sharedStore(memory, async (id) => {
    const snapshot = await memory.get(id);
    const act = meanwhile;
    meanwhile = undefined;
    await act?.();
    return snapshot;
  });
  const d = new PageApprovalDesk({ codec, lifetimeMs: 60_000, baseUrl: 'http://127.0.0.1:1/a', store, pollMs: 600_000 });
  const { flow, url } = await started(d);
  meanwhile = () => answer(d, url, { action: 'accept' });
  expect(await flow.waitAnswer('confirm', 'fp-1', { timeoutMs: 600_000 })).toEqual({ action: 'accept' });
});

test('with a shared store, an answer recorded by another instance is found', async () => {
  const shared = sharedStore(new MemoryApprovalStore());
  const here = desk(shared);
  const elsewhere = desk(shared);
  const { flow, url } = await started(here);
  const waiting = flow.waitAnswer('confirm', 'fp-1', { timeoutMs: 60_000 });
  expect(await answer(elsewhere, url, { action: 'decline' })).toBe(true);
  expect(await waiting).toEqual({ action: 'decline' });
});

test('no answer: undefined at the deadline or on abort, and the page still takes its one answer', async () => {
  const d = desk();
  const { flow, url } = await started(d);
  expect(await flow.waitAnswer('confirm', 'fp-1', { timeoutMs: 1 })).toBeUndefined();
  const abort = new AbortController();
  const waiting = flow.waitAnswer('confirm', 'fp-1', { signal: abort.signal, timeoutMs: 60_000 });
  abort.abort();
  expect(await waiting).toBeUndefined();
  expect(await answer(d, url, { action: 'accept' })).toBe(true);
  expect(await answer(d, url, { action: 'accept' }).catch((e: Error) => e.message)).toContain('already answered');
});
