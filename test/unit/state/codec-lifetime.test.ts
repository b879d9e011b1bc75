import { createRequestStateCodec, FUTURE_IAT_SKEW_MS } from '../../../src/state';
import { binding, codec, FakeClock, MODES, refusalOf, testKey } from './state-fixtures';

describe.each(MODES)('lifetimes in %s mode', (_mode, encrypt) => {
  it('B9: per-round expiry: accepted at exp-1s, refused at exp and exp+1s', async () => {
    const clock = new FakeClock();
    const subject = codec({ encryptRequestState: encrypt, requestStateLifetime: 600 }, clock);
    const token = subject.seal(1, binding());
    const exp = clock.ms + 600_000;
    const outcomes: string[] = [];
    for (const at of [exp - 1000, exp - 1, exp, exp + 1000]) {
      clock.ms = at;
      outcomes.push(await subject.open(token, binding()).then(() => 'accept', (e: { reason: string }) => e.reason));
    }
    expect(outcomes).toEqual(['accept', 'accept', 'expired', 'expired']);
  });

  it('B9: iat up to 60 s in the future is tolerated, 61 s is refused', async () => {
    const verifierClock = new FakeClock();
    const verifier = codec({ encryptRequestState: encrypt }, verifierClock);
    expect(FUTURE_IAT_SKEW_MS).toBe(60_000);
    const outcomes: string[] = [];
    for (const ahead of [59_000, 60_000, 60_001, 61_000]) {
      const minter = codec({ encryptRequestState: encrypt }, new FakeClock(verifierClock.ms + ahead));
      outcomes.push(
        await verifier.open(minter.seal(1, binding()), binding()).then(
          () => 'accept',
          (e: { reason: string }) => e.reason,
        ),
      );
    }
    expect(outcomes).toEqual(['accept', 'accept', 'future_iat', 'future_iat']);
  });

  it('bounds the whole flow: re-sealing each round cannot outlive maxFlowLifetime', async () => {
    const clock = new FakeClock();
    const subject = codec({ encryptRequestState: encrypt, requestStateLifetime: 600, maxFlowLifetime: 1800 }, clock);
    const flowStart = clock.ms;
    let token = subject.seal({ round: 1 }, binding());
    const rounds: string[] = [];
    for (let round = 2; round <= 5; round++) {
      clock.advance(500_000); // each answer well within the per-round lifetime
      const outcome = await subject.open(token, binding()).then(
        (opened) => {
          expect(opened.flowStartedAt).toBe(flowStart);
          token = subject.seal({ round }, binding(), opened.flowStartedAt);
          return 'accept';
        },
        (e: { reason: string }) => e.reason,
      );
      rounds.push(outcome);
    }
    // 500 s, 1000 s, 1500 s after the start are inside 1800 s; 2000 s is not.
    expect(rounds).toEqual(['accept', 'accept', 'accept', 'flow_expired']);
  });

  it('restarts the flow clock when flowStartedAt is not passed (documented: the caller must pass it)', async () => {
    const clock = new FakeClock();
    const subject = codec({ encryptRequestState: encrypt }, clock);
    const opened = await subject.open(subject.seal(1, binding(), clock.ms - 1000), binding());
    expect(opened.flowStartedAt).toBe(clock.ms - 1000);
  });
});

describe('A5: key rotation matrix', () => {
  const oldKey = testKey('old');
  const newKey = testKey('new');
  const phases = [[oldKey], [oldKey, newKey], [newKey, oldKey], [newKey]];

  it.each(MODES)('%s mode', async (_mode, encrypt) => {
    const make = (ring: Buffer[]) => createRequestStateCodec({ requestStateKey: ring, encryptRequestState: encrypt });
    const codecs = phases.map(make);
    const oldToken = codecs[0]!.seal(1, binding());
    const newToken = codecs[2]!.seal(1, binding());
    expect(codecs[1]!.fingerprint).toBe(codecs[0]!.fingerprint); // [old, new] still mints with old
    expect(codecs[2]!.fingerprint).toBe(codecs[3]!.fingerprint);
    const matrix: string[][] = [];
    for (const subject of codecs) {
      const row: string[] = [];
      for (const token of [oldToken, newToken]) {
        row.push(await subject.open(token, binding()).then(() => 'ok', (e: { reason: string }) => e.reason));
      }
      matrix.push(row);
    }
    expect(matrix).toEqual([
      ['ok', 'unknown_key'],
      ['ok', 'ok'],
      ['ok', 'ok'],
      ['unknown_key', 'ok'],
    ]);
  });

  it('refuses a ring of 5', () => {
    expect(() => createRequestStateCodec({ requestStateKey: ['a', 'b', 'c', 'd', 'e'].map(testKey) })).toThrow(
      /at most 4/,
    );
  });

  it('a token of an ephemeral key does not survive a restart (new codec)', async () => {
    const before = createRequestStateCodec({});
    const after = createRequestStateCodec({});
    await expect(refusalOf(after.open(before.seal(1, binding()), binding()))).resolves.toBe('unknown_key');
  });
});
