import { HttpSession } from '../../../../src/transports/http/http-session';
import { InMemoryEventStore } from '../../../../src/transports/http/event-store';
import type { ReplyStream } from '../../../../src/transports/http/reply-stream';
import { SessionRequestIO } from '../../../../src/transports/http/session-request-io';
import { closeSseStream } from '../../../../src/transports/http/sse-polling';

/** A reply that records what the IO does to it. */
function fakeReply(streamId?: string) {
  const pushed: unknown[] = [];
  let detached = 0;
  const reply = {
    streamId,
    push: (m: unknown) => void pushed.push(m),
    detach: async () => (detached++, true),
  } as unknown as ReplyStream;
  return { reply, pushed, detached: () => detached };
}

describe('HttpSession.resumable (how a session names and finds its streams)', () => {
  it('one object serves all POSTs; a stream is named and registered only when it opens', async () => {
    const store = new InMemoryEventStore();
    const s = new HttpSession('sid', undefined, store);
    s.legacy.protocolVersion = '2025-11-25';
    const posts = s.resumable('post', 1000);
    expect(s.resumable('post', 1000)).toBe(posts);
    expect(posts).toMatchObject({ store, primeRetryMs: 1000 });
    expect(s.streams.size).toBe(0);
    const [a, b] = [fakeReply().reply, fakeReply().reply];
    const first = posts.open(a);
    const second = posts.open(b);
    expect(first).not.toBe(second);
    expect(s.owns(first) && s.owns(second)).toBe(true);
    expect(s.streams.get(first)).toBe(a);
    expect(s.streams.get(second)).toBe(b);
    expect(s.resumable('get', 1000).open(a)).toMatch(/^sid\.get\d+$/);
    // Before 2025-11-25 a stream opens without a priming event.
    const older = new HttpSession('old', undefined, store);
    older.legacy.protocolVersion = '2025-06-18';
    expect(older.resumable('post', 1000).primeRetryMs).toBeUndefined();
  });
});

describe('SessionRequestIO (the lazy IO of a legacy session request)', () => {
  const session = () => new HttpSession('sid', undefined, new InMemoryEventStore());

  it('an abort before anyone read the signal is seen by a later read, with its reason', () => {
    const io = new SessionRequestIO(session(), fakeReply().reply, 7, undefined);
    expect(io.aborted).toBe(false);
    io.abort(new Error('cancelled by the client'));
    expect(io.aborted).toBe(true);
    expect(io.signal.aborted).toBe(true);
    expect((io.signal.reason as Error).message).toBe('cancelled by the client');
  });

  it('the signal it hands out closes the SSE stream early until the request is released', async () => {
    const r = fakeReply();
    const io = new SessionRequestIO(session(), r.reply, 7, undefined);
    const signal = io.signal;
    expect(io.signal).toBe(signal); // one controller per request
    await expect(closeSseStream(signal)).resolves.toBe(true);
    expect(r.detached()).toBe(1);
    io.release();
    await expect(closeSseStream(signal)).resolves.toBe(false);
    expect(r.detached()).toBe(1);
  });

  it('notifications stop once aborted; session notifications go to the GET stream once the request is over', () => {
    const s = session();
    const r = fakeReply();
    const io = new SessionRequestIO(s, r.reply, 7, undefined);
    const get = fakeReply();
    s.getStream = get.reply;
    io.notify({ jsonrpc: '2.0', method: 'notifications/progress' });
    io.notifySession({ jsonrpc: '2.0', method: 'notifications/elicitation/complete' });
    expect(r.pushed).toHaveLength(2);
    expect(get.pushed).toHaveLength(0);
    io.release();
    io.notifySession({ jsonrpc: '2.0', method: 'notifications/elicitation/complete' });
    expect(get.pushed).toHaveLength(1);
    const aborted = new SessionRequestIO(s, r.reply, 7, undefined);
    aborted.abort();
    aborted.notify({ jsonrpc: '2.0', method: 'notifications/progress' });
    aborted.notifySession({ jsonrpc: '2.0', method: 'notifications/elicitation/complete' });
    expect(r.pushed).toHaveLength(2);
    expect(get.pushed).toHaveLength(2);
  });

  it('release: the session forgets the request and its stream, and counts it as activity', () => {
    const s = session();
    const r = fakeReply('sid.post1'); // a reply that streamed, so it was registered
    const io = new SessionRequestIO(s, r.reply, 7, undefined);
    s.inflight.set(7, io);
    s.streams.set('sid.post1', r.reply);
    s.lastSeen = 0;
    io.release();
    expect(s.inflight.has(7)).toBe(false);
    expect(s.streams.has('sid.post1')).toBe(false);
    expect(s.lastSeen).toBeGreaterThan(0);
  });

  it('release forgets only its own entry: a later request may hold the same id', () => {
    const s = session();
    const r = fakeReply();
    const synchronous = new SessionRequestIO(s, r.reply, 7, undefined); // never registered
    const later = new SessionRequestIO(s, r.reply, 7, undefined);
    s.inflight.set(7, later);
    synchronous.release();
    expect(s.inflight.get(7)).toBe(later);
    later.release();
    expect(s.inflight.has(7)).toBe(false);
  });

  it('the requester is made once, on first use, and writes on the request stream', () => {
    const r = fakeReply();
    const io = new SessionRequestIO(session(), r.reply, 7, undefined);
    expect(io.requester).toBe(io.requester);
    void io.requester('roots/list', {}, { signal: io.signal, timeoutMs: 1000 }).catch(() => undefined);
    expect(r.pushed).toEqual([expect.objectContaining({ method: 'roots/list' })]);
    io.abort();
  });
});
