import { Inflight, type InflightEntry } from '../../../../src/transports/http/inflight';

function entry(): InflightEntry & { reasons: unknown[] } {
  const reasons: unknown[] = [];
  return { inflightSlot: -1, reasons, abort: (reason?: unknown) => void reasons.push(reason) };
}

describe('Inflight', () => {
  it('counts entered requests, reuses the slots they leave, and aborts only those still in flight', () => {
    const inflight = new Inflight();
    const [a, b, c] = [entry(), entry(), entry()];
    inflight.enter(a);
    inflight.enter(b);
    expect(inflight.size).toBe(2);
    inflight.leave(a);
    expect(a.inflightSlot).toBe(-1);
    inflight.enter(c); // takes a's slot
    expect(c.inflightSlot).toBe(0);
    const tracked = new AbortController();
    void inflight.track(new Promise(() => {}), tracked);
    expect(inflight.size).toBe(3);
    inflight.abortAll('shutting down');
    expect(a.reasons).toEqual([]);
    expect(b.reasons).toHaveLength(1);
    expect(c.reasons).toHaveLength(1);
    expect(tracked.signal.aborted).toBe(true);
  });

  it('wakes a drain when the last request leaves', async () => {
    const inflight = new Inflight();
    const a = entry();
    inflight.enter(a);
    const drained = inflight.drain(60_000);
    inflight.leave(a);
    await expect(drained).resolves.toBe(true);
    expect(inflight.size).toBe(0);
  });
});
