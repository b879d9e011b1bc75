import { openNow, StateRefusal, type SingleUseStore } from '../../../src/state';
import { binding, codec } from './state-fixtures';

/** A shared-store stand-in that answers through a promise. */
class AsyncStore implements SingleUseStore {
  private readonly used = new Set<string>();
  async claim(tokenId: string): Promise<boolean> {
    const first = !this.used.has(tokenId);
    this.used.add(tokenId);
    return first;
  }
}

describe('openNow: the request path opens a token without a promise when nothing waits', () => {
  it('opens at once (multi-use, and single-use with the in-memory store), and refuses a replay by throwing', () => {
    const plain = codec();
    const a = plain.seal({ n: 1 }, binding());
    const opened = openNow(plain, a, binding());
    expect(opened).not.toBeInstanceOf(Promise);
    expect((opened as { payload: unknown }).payload).toEqual({ n: 1 });

    const single = codec({ singleUseRequestState: true }); // the in-memory store, on the codec's clock
    const b = single.seal({ n: 2 }, binding());
    expect((openNow(single, b, binding()) as { payload: unknown }).payload).toEqual({ n: 2 });
    expect(() => openNow(single, b, binding())).toThrow(StateRefusal);
    expect(() => openNow(single, 42, binding())).toThrow(StateRefusal);
  });

  it('waits for a store that answers with a promise, and still refuses the second redemption', async () => {
    const single = codec({ singleUseRequestState: true, singleUseStore: new AsyncStore() });
    const token = single.seal({ n: 3 }, binding());
    const first = openNow(single, token, binding());
    expect(first).toBeInstanceOf(Promise);
    await expect(first).resolves.toMatchObject({ payload: { n: 3 } });
    await expect(openNow(single, token, binding())).rejects.toMatchObject({ reason: 'replayed' });
  });

  it('the public open still rejects (never throws) and a sealer made elsewhere is opened through its own open', async () => {
    const plain = codec();
    await expect(plain.open(42, binding())).rejects.toBeInstanceOf(StateRefusal);
    const foreign = { open: jest.fn(async () => ({ payload: 'x', flowStartedAt: 1 })) };
    await expect(openNow(foreign, 't', binding())).resolves.toEqual({ payload: 'x', flowStartedAt: 1 });
    expect(foreign.open).toHaveBeenCalledTimes(1);
  });
});
