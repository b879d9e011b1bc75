import { ParkedCalls } from '../../../src/bridge/parked-calls';
import { ProtocolError } from '../../../src/errors/protocol-error';

const limits = { maxParkedPerPrincipal: 2, maxParked: 3, parkTimeoutMs: 60_000, maxAsksPerCall: 2 };
const never = new AbortController().signal;

describe('ParkedCall', () => {
  test('an ask waits for its answer, delivered once; the next event shows what is still unanswered', async () => {
    const call = new ParkedCalls(limits).open('ann');
    const answered = call.ask('elicitation/create', { message: 'name?' });
    const event = await call.next(never);
    expect(event).toEqual({
      kind: 'asks',
      asks: [{ key: 'upstream-1', method: 'elicitation/create', params: { message: 'name?' } }],
    });
    call.deliver({ 'upstream-1': { action: 'accept' } });
    call.deliver({ 'upstream-1': { action: 'decline' } }); // a repeated retry: nothing left to deliver
    await expect(answered).resolves.toEqual({ action: 'accept' });
    call.settle({ kind: 'done', result: { content: [] } });
    await expect(call.next(never)).resolves.toEqual({ kind: 'done', result: { content: [] } });
  });

  test('a caller waiting for the next event wakes on a new ask, and stops waiting when its signal aborts', async () => {
    const call = new ParkedCalls(limits).open('ann');
    const waiting = call.next(never);
    void call.ask('roots/list', {});
    await expect(waiting).resolves.toMatchObject({ kind: 'asks', asks: [{ method: 'roots/list' }] });
    const gone = new AbortController();
    const second = new ParkedCalls(limits).open('bob');
    const pending = second.next(gone.signal);
    gone.abort(new Error('caller left'));
    await expect(pending).rejects.toThrow('caller left');
  });

  test('asks beyond maxAsksPerCall are refused to the upstream', async () => {
    const call = new ParkedCalls(limits).open('ann');
    void call.ask('roots/list', {});
    void call.ask('roots/list', {});
    await expect(call.ask('roots/list', {})).rejects.toMatchObject({ data: { reason: 'upstream_asks_limit' } });
  });

  test('settling rejects the asks still waiting (the upstream call is over)', async () => {
    const call = new ParkedCalls(limits).open('ann');
    const waiting = call.ask('roots/list', {});
    call.settle({ kind: 'failed', error: new Error('x') });
    await expect(waiting).rejects.toThrow('ended');
  });
});

describe('ParkedCalls', () => {
  test('parked calls are bounded per principal and per instance (over: cancelled and refused); finished ones stop counting', () => {
    const calls = new ParkedCalls(limits);
    const parked = (who: string) => {
      const call = calls.open(who);
      calls.park(call);
      return call;
    };
    const a1 = parked('ann');
    parked('ann');
    const third = calls.open('ann'); // running, not parked: not counted
    expect(() => calls.park(third)).toThrow(expect.objectContaining({ data: { reason: 'park_limit' } }));
    expect(third.upstream.signal.aborted).toBe(true);
    parked('bob');
    expect(() => parked('cy')).toThrow(/3 on this instance/);
    calls.finished(a1);
    expect(calls.size).toBe(2);
    expect(() => parked('ann')).not.toThrow();
  });

  test('a finished call a caller saw lingers for repeated retries; an unseen one is gone at once', () => {
    const calls = new ParkedCalls(limits);
    const seen = calls.open('ann');
    calls.park(seen);
    calls.finished(seen);
    expect(calls.find(seen.handle, 'ann')).toBe(seen);
    const unseen = calls.open('ann');
    calls.finished(unseen);
    const expired = expect.objectContaining({ data: { reason: 'parked_expired' } });
    expect(() => calls.find(unseen.handle, 'ann')).toThrow(expired);
  });

  test('find refuses another principal, and names a handle minted by another instance', () => {
    const here = new ParkedCalls(limits);
    const there = new ParkedCalls(limits);
    const call = there.open('ann');
    const elsewhere = (() => {
      try {
        here.find(call.handle, 'ann');
      } catch (e) {
        return e as ProtocolError;
      }
    })();
    expect(elsewhere).toBeInstanceOf(ProtocolError);
    expect(elsewhere!.code).toBe(-32602);
    expect(elsewhere!.data).toEqual({ reason: 'parked_elsewhere' });
    const expired = expect.objectContaining({ data: { reason: 'parked_expired' } });
    expect(() => there.find(call.handle, 'bob')).toThrow(expired);
  });

  test('abandon cancels the upstream call; the deadline does too', async () => {
    jest.useFakeTimers();
    try {
      const calls = new ParkedCalls({ ...limits, parkTimeoutMs: 1_000 });
      const left = calls.open('ann');
      calls.abandon(left, new Error('walked away'));
      expect(left.upstream.signal.aborted).toBe(true);
      const late = calls.open('ann');
      calls.park(late);
      jest.advanceTimersByTime(1_000);
      expect(late.upstream.signal.reason).toMatchObject({ data: { reason: 'call_deadline' } });
      expect(calls.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
