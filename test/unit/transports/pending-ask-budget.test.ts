/**
 * The pending-ask budget as OutboundRequests uses it: every way an ask ends gives its bytes back
 * (answered, refused by the client, timed out, cancelled, withdrawn, the connection closed, a send
 * that threw), so a session's share never leaks; a refused ask is not sent and takes nothing.
 */
import { PendingAskBudget } from '../../../src/server/legacy/pending-asks';
import { OutboundRequests } from '../../../src/transports/outbound-requests';

const limits = {
  maxPendingAsksPerSession: 10,
  maxPendingAskBytesPerSession: 1_000,
  maxPendingAskBytesPerPrincipal: 1_500,
  maxPendingAskBytes: 2_500,
};

function setup(principal = 'ada') {
  const budget = new PendingAskBudget(limits);
  const sent: Array<{ id?: unknown; method: string }> = [];
  const out = new OutboundRequests('s', budget.session(principal));
  const ask = (text: string, opts: { signal?: AbortSignal; timeoutMs?: number } = {}) =>
    out.requester((m) => sent.push(m as never))('elicitation/create', { message: text }, {
      signal: opts.signal ?? new AbortController().signal,
      timeoutMs: opts.timeoutMs ?? 60_000,
    });
  return { budget, out, sent, ask };
}

test('every way an ask ends gives its bytes back', async () => {
  const { budget, out, sent, ask } = setup();
  const answered = ask('a'.repeat(100));
  expect(budget.held('ada')).toBeGreaterThan(100);
  out.settle({ jsonrpc: '2.0', id: sent[0]!.id as string, result: {} });
  await answered;
  const refused = ask('b');
  out.settle({ jsonrpc: '2.0', id: sent[1]!.id as string, error: { code: -1, message: 'no' } });
  await expect(refused).rejects.toThrow('no');
  await expect(ask('c', { timeoutMs: 1 })).rejects.toThrow(/did not answer/);
  const controller = new AbortController();
  const cancelled = ask('d', { signal: controller.signal });
  controller.abort(new Error('cancelled'));
  await expect(cancelled).rejects.toThrow('cancelled');
  const withdrawn = ask('e');
  out.withdrawAll('shutting down');
  await expect(withdrawn).rejects.toThrow('shutting down');
  const closed = ask('f');
  out.rejectAll(new Error('closed'));
  await expect(closed).rejects.toThrow('closed');
  const throwing = new OutboundRequests('s', budget.session('ada'));
  await expect(
    throwing.requester(() => {
      throw new Error('gone');
    })('elicitation/create', { message: 'g' }, { signal: new AbortController().signal, timeoutMs: 60_000 }),
  ).rejects.toThrow('gone');
  expect(budget.held('ada')).toBe(0);
  expect(budget.held()).toBe(0);
});

test('refusals name the budget, send nothing and take nothing; each session and principal is its own', async () => {
  const { budget, out, sent, ask } = setup();
  // Asks left waiting are ended below; until then their rejections are handled here (unhandled, a 60 s
  // timeout rejecting later failed whichever suite ran next in the jest worker).
  const waiting = [ask('a'.repeat(900))];
  await expect(ask('b'.repeat(200))).rejects.toMatchObject({
    code: 'OMC_ASK_LIMIT',
    message: expect.stringContaining('maxPendingAskBytesPerSession'),
  });
  expect(sent).toHaveLength(1);
  const second = new OutboundRequests('s', budget.session('ada'));
  const request = (text: string) =>
    second.requester(() => undefined)('elicitation/create', { message: text }, {
      signal: new AbortController().signal,
      timeoutMs: 60_000,
    });
  await expect(request('c'.repeat(700))).rejects.toThrow(/maxPendingAskBytesPerPrincipal/);
  waiting.push(request('c'.repeat(500)));
  const anonymous = new OutboundRequests('s', budget.session(undefined));
  waiting.push(
    anonymous.requester(() => undefined)('x', { message: 'd'.repeat(900) }, {
      signal: new AbortController().signal,
      timeoutMs: 60_000,
    }),
  );
  expect(budget.held(null)).toBeGreaterThan(900);
  const bob = new OutboundRequests('s', budget.session('bob'));
  await expect(
    bob.requester(() => undefined)('x', { message: 'e'.repeat(900) }, {
      signal: new AbortController().signal,
      timeoutMs: 60_000,
    }),
  ).rejects.toThrow(/maxPendingAskBytes \(2500 bytes\)/);
  for (const requests of [out, second, anonymous]) requests.rejectAll(new Error('test over'));
  await Promise.allSettled(waiting);
  expect(budget.held()).toBe(0);
});
