// A token opened by the process that sealed it is read from memory, not decoded again: the same claims,
// the same checks, and the full path for everything else.
// The real module objects (not TS namespace copies), so jest.spyOn reaches the codec's calls.
import envelope = require('../../../src/state/envelope');
import {
  MAX_KEPT_PARAMS_CHARS,
  MAX_MINTED_BYTES,
  MAX_MINTED_TOKENS,
  MintedTokens,
} from '../../../src/state/minted-tokens';
import type { ClaimsDraft } from '../../../src/state/claims';
import type { DerivedStateKey } from '../../../src/state/key-ring';
import { binding, codec, FakeClock, MODES, refusalOf } from './state-fixtures';

afterEach(() => jest.restoreAllMocks());

const PAYLOADS: unknown[] = [
  { step: 2, answers: ['yes'], nested: { deep: [1, 2.5, -0, null, true] } },
  'text with é, 😀 and a lone \ud800 surrogate',
  { lone: '\udc00', empty: {}, list: [] },
  0,
  null,
  undefined,
  [{ a: 1 }, 'b'],
];

describe.each(MODES)('tokens this process minted, in %s mode', (_mode, encrypt) => {
  it('open without the envelope, with exactly what the full path reads back', async () => {
    const clock = new FakeClock();
    const minter = codec({ encryptRequestState: encrypt }, clock);
    const other = codec({ encryptRequestState: encrypt }, clock); // same key, another instance: the full path
    const opened = jest.spyOn(envelope, 'openEnvelope');
    for (const payload of PAYLOADS) {
      for (const b of [binding(), binding({ principal: undefined })]) {
        const token = minter.seal(payload, b, clock.ms - 5);
        const full = await other.open(token, b);
        const calls = opened.mock.calls.length;
        const fromMemory = await minter.open(token, b);
        expect(opened.mock.calls.length).toBe(calls); // not decoded, verified or decrypted again
        expect(fromMemory).toStrictEqual(full);
        const asJson: unknown = payload === undefined ? undefined : JSON.parse(JSON.stringify(payload));
        expect(fromMemory).toStrictEqual({ payload: asJson, flowStartedAt: clock.ms - 5 });
      }
    }
  });

  it('a second opening of the same token takes the full path, and still succeeds', async () => {
    const subject = codec({ encryptRequestState: encrypt });
    const token = subject.seal({ n: 1 }, binding());
    const opened = jest.spyOn(envelope, 'openEnvelope');
    await subject.open(token, binding());
    expect(opened).not.toHaveBeenCalled();
    await expect(subject.open(token, binding())).resolves.toMatchObject({ payload: { n: 1 } });
    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('a token that differs in any character before its tag is refused, and the original still opens from memory', async () => {
    const subject = codec({ encryptRequestState: encrypt });
    const token = subject.seal({ n: 1 }, binding());
    const cryptoReason = encrypt ? 'decrypt_failed' : 'bad_mac';
    for (const at of [4, 10, Math.floor(token.length / 2), token.length - 23]) {
      const swapped = token[at] === 'A' ? 'B' : 'A';
      const tampered = token.slice(0, at) + swapped + token.slice(at + 1);
      await expect(refusalOf(subject.open(tampered, binding()))).resolves.toMatch(
        new RegExp(`^(${cryptoReason}|malformed|unknown_key)$`),
      );
    }
    const opened = jest.spyOn(envelope, 'openEnvelope');
    await expect(subject.open(token, binding())).resolves.toMatchObject({ payload: { n: 1 } });
    expect(opened).not.toHaveBeenCalled();
  });

  it('every check still runs on a token read from memory', async () => {
    const clock = new FakeClock();
    const subject = codec({ encryptRequestState: encrypt, requestStateLifetime: 600 }, clock);
    const refusals: string[] = [];
    const otherArguments = { name: 'deploy', arguments: { env: 'dev', replicas: 3 } };
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['binding', () => subject.open(subject.seal(1, binding()), binding({ target: 'other-tool' }))],
      ['binding', () => subject.open(subject.seal(1, binding()), binding({ params: otherArguments }))],
      ['binding', () => subject.open(subject.seal(1, binding()), binding({ method: 'prompts/get' }))],
      ['principal', () => subject.open(subject.seal(1, binding()), binding({ principal: 'mallory' }))],
      ['principal', () => subject.open(subject.seal(1, binding()), binding({ principal: undefined }))],
      ['revision', () => subject.open(subject.seal(1, binding()), binding({ revision: '2025-11-25' }))],
    ];
    for (const [, run] of cases) refusals.push(await refusalOf(run()));
    const expiring = subject.seal(1, binding());
    clock.advance(600_000);
    refusals.push(await refusalOf(subject.open(expiring, binding())));
    expect(refusals).toEqual([...cases.map(([reason]) => reason), 'expired']);
  });

  it('single use: the first opening from memory claims the token id, the second is replayed', async () => {
    const subject = codec({ encryptRequestState: encrypt, singleUseRequestState: true });
    const token = subject.seal(1, binding());
    const opened = jest.spyOn(envelope, 'openEnvelope');
    await expect(subject.open(token, binding())).resolves.toMatchObject({ payload: 1 });
    expect(opened).not.toHaveBeenCalled();
    await expect(refusalOf(subject.open(token, binding()))).resolves.toBe('replayed');
  });

  it('a payload handed over with its text reopens as that very object, once; a second opening parses the token', async () => {
    const clock = new FakeClock();
    const subject = codec({ encryptRequestState: encrypt }, clock);
    const other = codec({ encryptRequestState: encrypt }, clock);
    const payload = { i: 'f', p: { confirm: 'AbCd' }, n: 1, w: 17 };
    const token = subject.seal(payload, binding(), undefined, JSON.stringify(payload));
    const first = await subject.open(token, binding());
    expect(first.payload).toBe(payload);
    const second = await subject.open(token, binding());
    expect(second.payload).not.toBe(payload);
    expect(second.payload).toStrictEqual(payload);
    expect((await other.open(token, binding())).payload).toStrictEqual(payload);
    // The text handed over is what is sealed: another instance reads exactly it.
    const told = subject.seal({ told: 1 }, binding(), undefined, '{"told":2}');
    expect((await other.open(told, binding())).payload).toStrictEqual({ told: 2 });
    // Not handed over: every opening is a parse of its own, never the sealer's object.
    const kept = { n: 2 };
    const plain = await subject.open(subject.seal(kept, binding()), binding());
    expect(plain.payload).not.toBe(kept);
    expect(plain.payload).toStrictEqual(kept);
  });

  it('params are compared with the text they were sealed over: same canonical text opens, any other is refused', async () => {
    const subject = codec({ encryptRequestState: encrypt });
    const sealedOver = { name: 'deploy', arguments: { env: 'prod', replicas: 3 }, _meta: { progressToken: 1 } };
    const sameText = [
      { arguments: { replicas: 3, env: 'prod' }, name: 'deploy' }, // another key order
      { ...sealedOver, _meta: { progressToken: 2 }, requestState: 'x', inputResponses: { a: 1 } }, // unbound keys
    ];
    for (const params of sameText) {
      const token = subject.seal(1, binding({ params: sealedOver }));
      await expect(subject.open(token, binding({ params }))).resolves.toMatchObject({ payload: 1 });
    }
    const otherText = [
      { name: 'deploy', arguments: { env: 'prod', replicas: 4 } },
      { name: 'deploy', arguments: { env: 'prod', replicas: 3, extra: null } },
      { name: 'deploy', arguments: { env: 'prod' } },
      { name: 'deploy', arguments: { env: 'prod', replicas: '3' } },
      { name: 'deplo', arguments: { env: 'prod', replicas: 3 } },
    ];
    for (const params of otherText) {
      const token = subject.seal(1, binding({ params: sealedOver }));
      await expect(refusalOf(subject.open(token, binding({ params })))).resolves.toBe('binding');
    }
  });

  it(`remembers at most ${MAX_MINTED_TOKENS} tokens: the oldest are opened the full way`, async () => {
    const subject = codec({ encryptRequestState: encrypt });
    const tokens = Array.from({ length: MAX_MINTED_TOKENS + 3 }, (_, i) => subject.seal(i, binding()));
    const opened = jest.spyOn(envelope, 'openEnvelope');
    for (let i = 0; i < tokens.length; i++) {
      await expect(subject.open(tokens[i], binding())).resolves.toMatchObject({ payload: i });
    }
    expect(opened).toHaveBeenCalledTimes(3);
    expect(opened.mock.calls.map(([token]) => token)).toEqual(tokens.slice(0, 3));
  });
});

describe('MintedTokens', () => {
  const key = {} as DerivedStateKey;
  const draft = (payloadJson: string | undefined): ClaimsDraft => ({
    jti: Buffer.alloc(16, 7),
    iat: 1,
    exp: 2,
    fst: 1,
    aud: 'a',
    rev: 'r',
    m: 'tools/call',
    t: 't',
    pd: 'digest',
    payloadJson,
  });
  /** `length` characters ending in 22 that differ for each `i` (the tail a token is looked up by). */
  const token = (i: number, length = 64): string => `v1.${'x'.repeat(length - 25)}${String(i).padStart(22, 'k')}`;

  it(`keeps at most ${MAX_MINTED_BYTES} bytes of tokens and payloads, letting the oldest go`, () => {
    const minted = new MintedTokens();
    const big = 'p'.repeat(MAX_MINTED_BYTES / 4);
    const tokens = Array.from({ length: 6 }, (_, i) => token(i, 1000));
    for (const t of tokens) minted.remember(t, key, draft(JSON.stringify(big)));
    const kept = tokens.filter((t) => minted.take(t) !== undefined);
    expect(kept).toEqual(tokens.slice(3)); // 3 × (a quarter + a token) fit, a fourth would not
  });

  it(`keeps a params text of at most ${MAX_KEPT_PARAMS_CHARS} characters, counted in its bytes`, () => {
    const minted = new MintedTokens();
    minted.remember(token(1), key, draft(undefined), undefined, '{"a":1}');
    expect(minted.take(token(1))).toMatchObject({ paramsText: '{"a":1}' });
    const long = `"${'q'.repeat(MAX_KEPT_PARAMS_CHARS)}"`;
    minted.remember(token(2), key, draft(undefined), undefined, long);
    expect(minted.take(token(2))?.paramsText).toBeUndefined();
    // Entries of the longest params text kept: only as many as the byte budget holds, the newest.
    const quarter = 'p'.repeat(MAX_KEPT_PARAMS_CHARS);
    const count = Math.ceil(MAX_MINTED_BYTES / MAX_KEPT_PARAMS_CHARS) + 5;
    const many = Array.from({ length: count }, (_, i) => token(i + 10));
    for (const t of many) minted.remember(t, key, draft(undefined), undefined, quarter);
    const kept = many.filter((t) => minted.take(t) !== undefined);
    expect(kept.length * (MAX_KEPT_PARAMS_CHARS + 64)).toBeLessThanOrEqual(MAX_MINTED_BYTES);
    expect(kept).toEqual(many.slice(many.length - kept.length));
  });

  it('hands a kept payload object out once, with the claims read from the draft', () => {
    const minted = new MintedTokens();
    const payload = { a: 1 };
    minted.remember(token(3), key, draft('{"a":1}'), payload);
    expect(minted.take(token(3))?.claims.p).toBe(payload);
    expect(minted.take(token(3))).toBeUndefined();
  });

  it('does not remember a token larger than the whole budget, and never answers a shorter or unknown token', () => {
    const minted = new MintedTokens();
    const huge = token(1, MAX_MINTED_BYTES + 1);
    minted.remember(huge, key, draft(undefined));
    expect(minted.take(huge)).toBeUndefined();
    minted.remember(token(2), key, draft('{"a":1}'));
    expect(minted.take('short')).toBeUndefined();
    expect(minted.take(`x${token(2).slice(1)}`)).toBeUndefined(); // same tail, another text
    const jti = Buffer.alloc(16, 7).toString('base64url');
    expect(minted.take(token(2))).toMatchObject({ key, claims: { p: { a: 1 }, jti } });
    expect(minted.take(token(2))).toBeUndefined(); // taken once
  });
});
