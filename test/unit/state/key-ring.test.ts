import nodeCrypto = require('node:crypto');
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { FrameworkError } from '../../../src/errors/framework-error';
import { createRequestStateCodec, KeyRing } from '../../../src/state';
import { binding, testKey } from './state-fixtures';

function refusalMessage(option: unknown): string {
  try {
    KeyRing.fromOption(option);
  } catch (error) {
    expect(error).toBeInstanceOf(FrameworkError);
    expect((error as FrameworkError).code).toBe('OMC_INVALID_OPTIONS');
    return (error as FrameworkError).message;
  }
  throw new Error('expected the key to be refused');
}

const HOW_TO_GENERATE = `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

describe('KeyRing: key material (A7)', () => {
  const key = testKey('a');

  it.each([
    ['0 bytes', Buffer.alloc(0), '0 bytes'],
    ['16 bytes', key.subarray(0, 16), '16 bytes'],
    ['31 bytes', key.subarray(0, 31), '31 bytes'],
    ['a short base64url string', key.subarray(0, 16).toString('base64url'), '16 bytes'],
    ['a short hex string', `hex:${key.subarray(0, 31).toString('hex')}`, '31 bytes'],
  ])('refuses a key of %s with a hint how to make one', (_label, option, says) => {
    const message = refusalMessage(option);
    expect(message).toContain(says);
    expect(message).toContain(HOW_TO_GENERATE);
  });

  it.each([
    ['a number', 42],
    ['null', null],
    ['an object', { key: 'x' }],
    ['a nested array', [[key]]],
    ['a string that is neither hex nor base64', 'correct horse battery staple!!'],
    ['mixed base64 alphabets', `${key.toString('base64url').slice(0, 20)}+-${key.toString('base64url').slice(22)}`],
    ['bad hex after the prefix', `hex:${'zz'.repeat(32)}`],
  ])('refuses %s', (_label, option) => {
    expect(refusalMessage(option)).toMatch(/requestStateKey/);
  });

  it.each([
    ['all zero bytes', Buffer.alloc(32)],
    ['one repeated byte', Buffer.alloc(48, 7)],
    ['a 3-byte pattern', Buffer.from('abc'.repeat(11))],
    ['a counting sequence', Buffer.from(Array.from({ length: 32 }, (_, i) => i))],
    ["'a' x 44 read as base64url", 'a'.repeat(44)],
  ])('refuses an obviously low-entropy key: %s', (_label, option) => {
    expect(refusalMessage(option)).toMatch(/non-random/);
  });

  it('refuses an empty ring, a ring of 5, and duplicate entries (also across encodings)', () => {
    expect(refusalMessage([])).toMatch(/empty/);
    expect(refusalMessage(['a', 'b', 'c', 'd', 'e'].map(testKey))).toMatch(/at most 4/);
    expect(refusalMessage([key, testKey('b'), Buffer.from(key)])).toMatch(/\[2\] repeats requestStateKey\[0\]/);
    expect(refusalMessage([key.toString('base64url'), `hex:${key.toString('hex')}`])).toMatch(/repeats/);
  });

  it('accepts every supported spelling of the same key, all with the same fingerprint', () => {
    const spellings = [
      key,
      new Uint8Array(key),
      key.toString('base64url'),
      key.toString('base64'),
      `base64:${key.toString('base64')}`,
      `base64url:${key.toString('base64url')}`,
      key.toString('hex'),
      `hex:${key.toString('hex').toUpperCase()}`,
      `  ${key.toString('base64url')}\n`,
    ];
    const fingerprints = new Set(spellings.map((s) => KeyRing.fromOption(s).fingerprint));
    expect(fingerprints.size).toBe(1);
    expect([...fingerprints][0]).toMatch(/^[0-9a-f]{16}$/);
  });

  it('copies the key at construction: mutating the caller buffer changes nothing', async () => {
    const callerKey = Buffer.from(key);
    const codec = createRequestStateCodec({ requestStateKey: callerKey });
    const fingerprint = codec.fingerprint;
    const token = codec.seal({ n: 1 }, binding());
    callerKey.fill(0);
    expect(codec.fingerprint).toBe(fingerprint);
    await expect(codec.open(token, binding())).resolves.toMatchObject({ payload: { n: 1 } });
    expect(callerKey.equals(Buffer.alloc(32))).toBe(true); // we did not keep (or zero) the caller's own buffer
  });

  it('accepts a ring of up to 4 keys; the first one mints', () => {
    const ring = KeyRing.fromOption(['a', 'b', 'c', 'd'].map(testKey));
    expect(ring.size).toBe(4);
    expect(ring.fingerprint).toBe(KeyRing.fromOption(testKey('a')).fingerprint);
    expect(ring.find(ring.minting.kid)).toBe(ring.minting);
    expect(ring.find(Buffer.from([0, 0, 0, 0]))).toBeUndefined();
  });

  it('derives a distinct sub-key for each purpose, none equal to the key', () => {
    const ring = KeyRing.fromOption(key);
    const subKeys = [ring.minting.macKey, ring.minting.encKey, ring.minting.bindingKey].map((b) => b.toString('hex'));
    expect(new Set([...subKeys, key.toString('hex')]).size).toBe(4);
    expect(ring.minting.kid).toHaveLength(4);
    expect(ring.fingerprint).not.toContain(ring.minting.kid.toString('hex'));
  });

  it('uses an ephemeral random key when none is configured, different per process (per ring)', () => {
    const a = KeyRing.fromOption(undefined);
    const b = KeyRing.fromOption(undefined);
    expect(a.ephemeral).toBe(true);
    expect(a.fingerprint).not.toBe(b.fingerprint);
    expect(KeyRing.fromOption(key).ephemeral).toBe(false);
  });

  it('never prints key material through JSON or inspect', () => {
    const ring = KeyRing.fromOption(key);
    const printed =
      JSON.stringify(ring) + inspect(ring, { showHidden: true, depth: 5 }) + inspect({ options: { keyRing: ring } });
    for (const secret of [key, ring.minting.macKey, ring.minting.encKey, ring.minting.bindingKey]) {
      expect(printed).not.toContain(secret.toString('hex'));
      expect(printed).not.toContain(secret.toString('base64'));
    }
    expect(printed).toContain(ring.fingerprint);
  });
});

test('an ephemeral key the runtime refuses to draw names requestStateKey (a Workers global scope)', () => {
  const refuse = () => {
    throw new Error('Disallowed operation called within global scope');
  };
  // Drawn on first use (createFetchHandler reads the fingerprint as it is built, in the global scope).
  const ring = KeyRing.fromOption(undefined, refuse);
  expect(() => ring.fingerprint).toThrow(
    /OMC_INVALID_OPTIONS.*no requestStateKey is set.*Disallowed operation called within global scope.*Set requestStateKey/s,
  );
});

test('an ephemeral key is drawn once, on first use, and the sub-keys come from that same key', () => {
  const key = testKey('e');
  let draws = 0;
  const random = (n: number) => {
    draws++;
    return Buffer.from(key.subarray(0, n));
  };
  const ring = KeyRing.fromOption(undefined, random);
  expect(draws).toBe(0); // a stdio app that never seals loads no node:crypto to start (issue 38)
  expect(ring.size).toBe(1);
  const configured = KeyRing.fromOption(key);
  expect(ring.fingerprint).toBe(configured.fingerprint);
  expect(ring.minting.kid.equals(configured.minting.kid)).toBe(true);
  expect(ring.fingerprint).toBe(configured.fingerprint);
  expect(draws).toBe(1);
});

test('a hex key one byte short says it is 31 bytes, not that it is neither hex nor base64', () => {
  const short = randomBytes(31).toString('hex');
  expect(() => KeyRing.fromOption(short)).toThrow(/requestStateKey is 31 bytes; at least 32 random bytes are required/);
});

describe('KeyRing: HKDF on first use (issue 38: nothing derived at start-up for an app that never seals)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('parses at construction, derives the fingerprint alone when read, the rest at the first seal', () => {
    const hkdf = jest.spyOn(nodeCrypto, 'hkdfSync');
    const ring = KeyRing.fromOption(testKey('lazy'));
    expect(hkdf).not.toHaveBeenCalled();
    expect(ring.fingerprint).toBe(KeyRing.fromOption(testKey('lazy')).fingerprint);
    expect(hkdf.mock.calls.map((call) => call[3])).toEqual([
      'omc/request-state/v1/fingerprint',
      'omc/request-state/v1/fingerprint',
    ]);
    hkdf.mockClear();
    const codec = createRequestStateCodec({ requestStateKey: testKey('lazy') });
    expect(hkdf).not.toHaveBeenCalled();
    codec.seal(1, binding());
    // The raw key is dropped once its sub-keys exist, so the fingerprint not read yet is derived with them.
    expect(hkdf.mock.calls.map((call) => call[3]).sort()).toEqual(
      ['binding', 'enc', 'fingerprint', 'kid', 'mac'].map((purpose) => `omc/request-state/v1/${purpose}`),
    );
  });

  it('a ring of several keys derives at once: clashing key ids are a start-up error', () => {
    const hkdf = jest.spyOn(nodeCrypto, 'hkdfSync');
    KeyRing.fromOption([testKey('a'), testKey('b')]);
    expect(hkdf.mock.calls.length).toBeGreaterThanOrEqual(8);
  });
});
