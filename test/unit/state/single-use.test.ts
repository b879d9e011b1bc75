import { MemorySingleUseStore, type SingleUseStore } from '../../../src/state';
import { binding, codec, FakeClock, MODES, refusalOf } from './state-fixtures';

/** Every spelling whose final character differs only in pad bits (what a lenient decoder accepts). */
function padBitSpellings(token: string): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const dot = token.indexOf('.');
  const body = token.slice(dot + 1);
  const bytes = Buffer.from(body, 'base64url');
  return [...alphabet]
    .map((c) => token.slice(0, -1) + c)
    .filter((t) => Buffer.from(t.slice(dot + 1), 'base64url').equals(bytes) && t.length === token.length);
}

/** A shared-store stand-in: atomic check-and-set, then an async round trip. */
class SlowStore implements SingleUseStore {
  readonly ids: string[] = [];
  private readonly used = new Set<string>();
  async claim(tokenId: string): Promise<boolean> {
    this.ids.push(tokenId);
    const first = !this.used.has(tokenId);
    this.used.add(tokenId);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    return first;
  }
}

describe.each(MODES)('B13: single use in %s mode', (_mode, encrypt) => {
  /** A token whose byte length leaves 2 pad bits, so it has exactly 4 spellings. */
  function tokenWithFourSpellings(seal: (payload: unknown) => string): string {
    for (let n = 0; n < 3; n++) {
      const token = seal({ pad: 'x'.repeat(n) });
      if (padBitSpellings(token).length === 4) return token;
    }
    throw new Error('no token with 4 spellings');
  }

  it('50 concurrent redemptions plus the 4 base64 spellings: exactly one succeeds', async () => {
    const store = new SlowStore();
    const subject = codec({ encryptRequestState: encrypt, singleUseRequestState: true, singleUseStore: store });
    const token = tokenWithFourSpellings((payload) => subject.seal(payload, binding()));
    const spellings = padBitSpellings(token);
    expect(spellings).toHaveLength(4);
    expect(spellings).toContain(token);
    const attempts = [...Array.from({ length: 50 }, () => token), ...spellings];
    const results = await Promise.allSettled(attempts.map((t) => subject.open(t, binding())));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results).toHaveLength(54);
    // Keyed on the decoded token id, never the wire string.
    expect(new Set(store.ids).size).toBe(1);
    expect(store.ids[0]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(token).not.toContain(store.ids[0]);
  });

  it('with the default in-memory store, the second redemption is replayed', async () => {
    const subject = codec({ encryptRequestState: encrypt, singleUseRequestState: true });
    const token = subject.seal(1, binding());
    await expect(subject.open(token, binding())).resolves.toBeDefined();
    await expect(refusalOf(subject.open(token, binding()))).resolves.toBe('replayed');
    // A fresh token of the same flow is fine.
    await expect(subject.open(subject.seal(2, binding()), binding())).resolves.toMatchObject({ payload: 2 });
  });

  it('does not burn the token id when verification fails first', async () => {
    const subject = codec({ encryptRequestState: encrypt, singleUseRequestState: true });
    const token = subject.seal(1, binding());
    await expect(refusalOf(subject.open(token, binding({ principal: 'mallory' })))).resolves.toBe('principal');
    await expect(subject.open(token, binding())).resolves.toBeDefined();
  });

  it('B12: in multi-use mode (default) a completed round can be replayed within its lifetime', async () => {
    const subject = codec({ encryptRequestState: encrypt });
    const token = subject.seal(1, binding());
    await expect(subject.open(token, binding())).resolves.toBeDefined(); // round 2 succeeded first
    await expect(subject.open(token, binding())).resolves.toBeDefined(); // idempotency is the handler's job
  });
});

describe('MemorySingleUseStore', () => {
  it('forgets ids once they expire, sweeping as it goes', () => {
    const clock = new FakeClock();
    const store = new MemorySingleUseStore(clock.now, 1000);
    expect(store.claim('a', clock.ms + 500)).toBe(true);
    expect(store.claim('a', clock.ms + 500)).toBe(false);
    expect(store.claim('b', clock.ms + 5000)).toBe(true);
    clock.advance(2000);
    expect(store.claim('c', clock.ms + 5000)).toBe(true); // triggers a sweep
    expect(store.size).toBe(2); // 'a' swept
    expect(store.claim('b', clock.ms + 5000)).toBe(false);
  });
});
