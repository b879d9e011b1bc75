import { ReplyIO } from '../../../../src/transports/http/reply-io';
import type { ResponseSink } from '../../../../src/transports/http/http-exchange';
import type { ReplyStream } from '../../../../src/transports/http/reply-stream';
import { closeSseStream } from '../../../../src/transports/http/sse-polling';

function fakeReply() {
  const pushed: unknown[] = [];
  const reply = { push: (m: unknown) => void pushed.push(m), detach: async () => true } as unknown as ReplyStream;
  return { reply, pushed };
}

describe('ReplyIO (the lazy IO of a sessionless HTTP request)', () => {
  it('makes no controller until the signal is read, then hands out the same one', () => {
    const io = new ReplyIO(fakeReply().reply, { id: 'alice' });
    expect(io.aborted).toBe(false);
    expect(io.principal).toEqual({ id: 'alice' });
    const signal = io.signal;
    expect(io.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
  });

  it('an abort before anyone read the signal is seen by a later read, with its reason', () => {
    const io = new ReplyIO(fakeReply().reply, undefined);
    io.abort(new Error('The client closed the response stream'));
    expect(io.aborted).toBe(true);
    expect(io.signal.aborted).toBe(true);
    expect((io.signal.reason as Error).message).toBe('The client closed the response stream');
  });

  it('notifications go on the reply until the request is aborted, then not one more', () => {
    const r = fakeReply();
    const io = new ReplyIO(r.reply, undefined);
    io.notify({ jsonrpc: '2.0', method: 'notifications/progress' });
    io.abort();
    io.notify({ jsonrpc: '2.0', method: 'notifications/progress' });
    expect(r.pushed).toHaveLength(1);
  });

  it('its signal has no SSE-polling closer: only a legacy session request can end its stream early', async () => {
    const io = new ReplyIO(fakeReply().reply, undefined);
    await expect(closeSseStream(io.signal)).resolves.toBe(false);
  });

  describe('watching its response (a 2026 POST)', () => {
    /** A response sink whose client can leave; counts the departure listeners it was given. */
    function sink() {
      const listeners: Array<() => void> = [];
      const res = {
        gone: false,
        onGone: (l: () => void) => void listeners.push(l),
        send: () => undefined,
        openStream: () => ({ write: () => undefined, end: () => undefined }),
      };
      const leave = () => {
        res.gone = true;
        for (const l of listeners.splice(0)) l();
      };
      return { res: res as ResponseSink, listeners, leave };
    }

    it('listens for the client leaving only once the signal is read', () => {
      const s = sink();
      const io = new ReplyIO(fakeReply().reply, undefined, undefined, s.res);
      expect(s.listeners).toHaveLength(0);
      const signal = io.signal;
      expect(s.listeners).toHaveLength(1);
      s.leave();
      expect(signal.aborted).toBe(true);
      expect((signal.reason as Error).message).toBe('The client closed the response stream');
      expect(io.aborted).toBe(true);
    });

    it('a signal first read after the client left is aborted already, with the same reason', () => {
      const s = sink();
      const io = new ReplyIO(fakeReply().reply, undefined, undefined, s.res);
      s.leave();
      expect(io.signal.aborted).toBe(true);
      expect((io.signal.reason as Error).message).toBe('The client closed the response stream');
      expect(s.listeners).toHaveLength(0);
    });

    it('an abort (shutdown) before the client leaves keeps its own reason', () => {
      const s = sink();
      const io = new ReplyIO(fakeReply().reply, undefined, undefined, s.res);
      io.abort(new Error('server shutting down'));
      s.leave();
      expect((io.signal.reason as Error).message).toBe('server shutting down');
    });
  });
});
