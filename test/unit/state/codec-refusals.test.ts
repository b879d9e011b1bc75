import nodeCrypto = require('node:crypto');
import * as base64url from '../../../src/state/base64url';
import { FrameworkError } from '../../../src/errors/framework-error';
import { createRequestStateCodec, StateRefusal, type StateRefusalReason } from '../../../src/state';
import { binding, codec, FakeClock, joinToken, MODES, refusalOf, splitToken } from './state-fixtures';

afterEach(() => jest.restoreAllMocks());

function nestedArguments(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { d: value };
  return value;
}

describe('A11: every cause is a StateRefusal with its own reason', () => {
  it('produces 15 distinct reasons for 15 causes, none leaking the payload', async () => {
    const clock = new FakeClock();
    const main = codec({}, clock);
    const secret = 'PAYLOAD-MARKER-7f3a';
    const good = main.seal({ secret }, binding());
    const { prefix, bytes } = splitToken(good);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 1]! ^= 0x80;
    const unknownKid = Buffer.from(bytes);
    unknownKid[0]! ^= 0xff;

    const later = new FakeClock(clock.ms + 61_000);
    const future = codec({}, later).seal({ secret }, binding());
    const oldFlow = main.seal({ secret }, binding(), clock.ms - 3_600_000 + 1_000);
    const singleClock = new FakeClock();
    const single = codec({ singleUseRequestState: true }, singleClock);
    const once = single.seal({ secret }, binding());
    await single.open(once, binding());

    const causes: Array<[StateRefusalReason, () => Promise<unknown>]> = [
      ['not_a_string', () => main.open(42, binding())],
      ['oversize', () => main.open('v1.'.padEnd(65_537, 'A'), binding())],
      ['malformed', () => main.open(`${good}!`, binding())],
      ['unknown_key', () => main.open(joinToken(prefix, unknownKid), binding())],
      ['bad_mac', () => main.open(joinToken(prefix, flipped), binding())],
      ['decrypt_failed', () => codec({ encryptRequestState: true }).open(tamperAead(), binding())],
      ['wrong_mode', () => codec({ encryptRequestState: true }).open(good, binding())],
      ['expired', () => codec({}, new FakeClock(clock.ms + 600_000)).open(good, binding())],
      ['future_iat', () => main.open(future, binding())],
      ['flow_expired', () => codec({}, new FakeClock(clock.ms + 1_000)).open(oldFlow, binding())],
      ['audience', () => codec({ requestStateAudience: 'other-server' }).open(good, binding())],
      ['binding', () => main.open(good, binding({ target: 'destroy' }))],
      ['principal', () => main.open(good, binding({ principal: 'bob' }))],
      ['revision', () => main.open(good, binding({ revision: '2025-11-25' }))],
      ['replayed', () => single.open(once, binding())],
    ];
    const seen = new Set<StateRefusalReason>();
    for (const [expected, cause] of causes) {
      let refusal: unknown;
      await cause().then(
        () => undefined,
        (error: unknown) => (refusal = error),
      );
      expect(refusal).toBeInstanceOf(StateRefusal);
      expect((refusal as StateRefusal).reason).toBe(expected);
      expect((refusal as StateRefusal).message).not.toContain(secret);
      seen.add((refusal as StateRefusal).reason);
    }
    expect(seen.size).toBe(15);
  });
});

/** An AES token for the default test key with one ciphertext bit flipped. */
function tamperAead(): string {
  const token = codec({ encryptRequestState: true }).seal({ a: 1 }, binding());
  const { prefix, bytes } = splitToken(token);
  bytes[40]! ^= 1;
  return joinToken(prefix, bytes);
}

describe('C1: oversize tokens are refused before any decoding or crypto', () => {
  it.each(MODES)('%s mode', async (_mode, encrypt) => {
    const subject = codec({ encryptRequestState: encrypt, maxRequestStateBytes: 2048 });
    const decode = jest.spyOn(base64url, 'decodeBase64Url');
    const spies = (['createHmac', 'createDecipheriv', 'hkdfSync', 'timingSafeEqual', 'createHash'] as const).map(
      (name) => jest.spyOn(nodeCrypto, name),
    );
    const prefix = encrypt ? 'v1e.' : 'v1.';
    for (const length of [2049, 65_537, Math.floor(3.9 * 1024 * 1024)]) {
      await expect(refusalOf(subject.open(prefix.padEnd(length, 'A'), binding()))).resolves.toBe('oversize');
    }
    expect(decode).not.toHaveBeenCalled();
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    // At the limit the token is decoded (and refused for another reason).
    await expect(refusalOf(subject.open(prefix.padEnd(2048, 'A'), binding()))).resolves.not.toBe('oversize');
    expect(decode).toHaveBeenCalledTimes(1);
  });

  it('uses 65 536 by default', async () => {
    const subject = codec();
    await expect(refusalOf(subject.open('v1.'.padEnd(65_537, 'A'), binding()))).resolves.toBe('oversize');
    await expect(refusalOf(subject.open('v1.'.padEnd(65_536, 'A'), binding()))).resolves.toBe('malformed');
  });
});

describe('C2: a state that would seal above the limit is never emitted', () => {
  it.each(MODES)('%s mode', async (_mode, encrypt) => {
    const max = 4096;
    const subject = codec({ encryptRequestState: encrypt, maxRequestStateBytes: max });
    const sealed: string[] = [];
    let tooLarge = 0;
    for (let size = 2500; size <= 3500; size += 10) {
      try {
        sealed.push(subject.seal({ blob: 'x'.repeat(size) }, binding()));
      } catch (error) {
        expect(error).toBeInstanceOf(FrameworkError);
        expect((error as FrameworkError).code).toBe('OMC_STATE_TOO_LARGE');
        tooLarge++;
      }
    }
    expect(tooLarge).toBeGreaterThan(0);
    expect(sealed.length).toBeGreaterThan(0);
    expect(Math.max(...sealed.map((t) => t.length))).toBeLessThanOrEqual(max);
    expect(Math.max(...sealed.map((t) => t.length))).toBeGreaterThan(max - 10); // the size estimate is exact
    for (const token of sealed) await expect(subject.open(token, binding())).resolves.toBeDefined();
  });

  it('refuses before building the envelope (no MAC computed)', () => {
    const subject = codec({ maxRequestStateBytes: 1024 });
    const hmac = jest.spyOn(nodeCrypto, 'createHmac');
    expect(() => subject.seal('x'.repeat(2000), binding({ principal: undefined }))).toThrow(/OMC_STATE_TOO_LARGE/);
    expect(hmac).not.toHaveBeenCalled();
  });

  it('refuses a payload nested deeper than 64 levels without a RangeError', () => {
    const subject = codec();
    expect(() => subject.seal(nestedArguments(64), binding())).not.toThrow();
    for (const depth of [65, 5_000, 100_000]) {
      expect(() => subject.seal(nestedArguments(depth), binding())).toThrow(/OMC_STATE_TOO_LARGE.*deeper than 64/);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => subject.seal(cyclic, binding())).toThrow(FrameworkError);
  });
});

describe('C3: only a string can be a token', () => {
  const subject = codec();
  it.each([
    ['a number', 42],
    ['an object', { requestState: 'x' }],
    ['an array', ['v1.abc']],
    ['true', true],
    ['null (the caller treats it as absent; the codec refuses it)', null],
    ['undefined', undefined],
    ['a String object', new String('v1.abc')],
  ])('refuses %s as not_a_string', async (_label, value) => {
    await expect(refusalOf(subject.open(value, binding()))).resolves.toBe('not_a_string');
  });

  it('refuses the empty string and strings without a prefix as malformed', async () => {
    for (const value of ['', 'v1.', 'hello', '.', 'v1..', 'v1.AAAA.BBBB', 'v1']) {
      await expect(refusalOf(subject.open(value, binding()))).resolves.toBe('malformed');
    }
    await expect(refusalOf(subject.open('v1e.', binding()))).resolves.toBe('wrong_mode');
  });
});

describe('C4: nesting bombs in the retry params', () => {
  it('binds params up to the depth cap and refuses deeper ones with a StateRefusal', async () => {
    const subject = codec();
    const at64 = { name: 'deploy', arguments: nestedArguments(63) }; // params object + 63 nested objects
    const token = subject.seal(null, binding({ params: at64 }));
    await expect(subject.open(token, binding({ params: at64 }))).resolves.toBeDefined();
    for (const depth of [64, 5_000, 100_000]) {
      const deep = { name: 'deploy', arguments: nestedArguments(depth) };
      const error = await subject.open(token, binding({ params: deep })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateRefusal);
      expect(error).toMatchObject({ reason: 'binding', detail: 'params: too_deep' });
      expect(() => subject.seal(null, binding({ params: deep }))).toThrow(/nests deeper than 64/);
    }
  });
});

describe('flowStartedAt at seal', () => {
  it('refuses a flow start in the future or not an integer', () => {
    const clock = new FakeClock();
    const subject = codec({}, clock);
    expect(() => subject.seal(1, binding(), clock.ms + 1)).toThrow(RangeError);
    expect(() => subject.seal(1, binding(), NaN)).toThrow(RangeError);
    expect(() => subject.seal(1, binding(), clock.ms)).not.toThrow();
  });
});

it('a codec built from options without a key cannot open another instance\'s tokens (ephemeral key)', async () => {
  const a = createRequestStateCodec({});
  const b = createRequestStateCodec({});
  await expect(refusalOf(b.open(a.seal(1, binding()), binding()))).resolves.toBe('unknown_key');
});
