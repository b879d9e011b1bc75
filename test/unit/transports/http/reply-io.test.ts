import { ReplyIO } from '../../../../src/transports/http/reply-io';
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
});
