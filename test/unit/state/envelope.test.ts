// The real module object (not a TS namespace copy), so jest.spyOn reaches the codec's calls.
import nodeCrypto = require('node:crypto');
import { createRequestStateCodec, type StateRefusalReason } from '../../../src/state';
import { MAX_SEALS_PER_SALT } from '../../../src/state/token-keys';
import { BASE64URL_ALPHABET, binding, codec, joinToken, MODES, refusalOf, splitToken, testKey } from './state-fixtures';

afterEach(() => jest.restoreAllMocks());

describe.each(MODES)('envelope in %s mode', (_mode, encrypt) => {
  const subject = codec({ encryptRequestState: encrypt });
  const token = subject.seal({ step: 2, answers: ['yes'] }, binding());

  it('opens its own token', async () => {
    await expect(subject.open(token, binding())).resolves.toEqual({
      payload: { step: 2, answers: ['yes'] },
      flowStartedAt: expect.any(Number),
    });
  });

  it('A1: refuses every single-character substitution at every position', async () => {
    const reasons = new Map<StateRefusalReason, number>();
    let tried = 0;
    for (let position = 0; position < token.length; position++) {
      for (const replacement of BASE64URL_ALPHABET) {
        if (replacement === token[position]) continue;
        const tampered = token.slice(0, position) + replacement + token.slice(position + 1);
        const reason = await refusalOf(subject.open(tampered, binding()));
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        tried++;
      }
    }
    // 64 alphabet characters minus the original (63 for base64url positions; prefix chars are not in it except
    // letters/digits).
    expect(tried).toBeGreaterThanOrEqual((token.length - 4) * 63);
    const cryptoReason = encrypt ? 'decrypt_failed' : 'bad_mac';
    expect(reasons.get(cryptoReason)).toBeGreaterThan(tried / 2);
    expect([...reasons.keys()].every((r) => ['malformed', 'wrong_mode', 'unknown_key', cryptoReason].includes(r))).toBe(
      true,
    );
  });

  it('A1: refuses appended, removed and conformance-style "-TAMPERED" changes', async () => {
    for (const tampered of [
      `${token}-TAMPERED`,
      token.slice(0, -1),
      token.slice(0, -4),
      `${token}AAAA`,
      token.slice(0, 10),
      '',
    ]) {
      await expect(refusalOf(subject.open(tampered, binding()))).resolves.toMatch(/malformed|bad_mac|decrypt_failed/);
    }
  });

  it('A6: refuses the body moved under another version or mode prefix, and the other mode', async () => {
    const body = token.slice(token.indexOf('.') + 1);
    for (const prefix of ['v2.', 'v0.', 'V1.', 'v1x.', '', '.']) {
      await expect(refusalOf(subject.open(prefix + body, binding()))).resolves.toBe('malformed');
    }
    await expect(refusalOf(subject.open((encrypt ? 'v1.' : 'v1e.') + body, binding()))).resolves.toBe('wrong_mode');
    const other = codec({ encryptRequestState: !encrypt });
    await expect(refusalOf(other.open(token, binding()))).resolves.toBe('wrong_mode');
    await expect(refusalOf(subject.open(other.seal({}, binding()), binding()))).resolves.toBe('wrong_mode');
  });

  it("A6: refuses a kid moved onto another ring key's token, and an unknown kid", async () => {
    const ring = createRequestStateCodec({
      requestStateKey: [testKey('main'), testKey('second')],
      encryptRequestState: encrypt,
    });
    const second = createRequestStateCodec({ requestStateKey: testKey('second'), encryptRequestState: encrypt });
    const { prefix, bytes } = splitToken(token);
    const secondKid = splitToken(second.seal({}, binding())).bytes.subarray(0, 4);
    const moved = Buffer.from(bytes);
    secondKid.copy(moved, 0);
    await expect(refusalOf(ring.open(joinToken(prefix, moved), binding()))).resolves.toBe(
      encrypt ? 'decrypt_failed' : 'bad_mac',
    );
    const unknown = Buffer.from(bytes);
    unknown.writeUInt32BE((unknown.readUInt32BE(0) + 1) >>> 0, 0);
    await expect(refusalOf(ring.open(joinToken(prefix, unknown), binding()))).resolves.toBe('unknown_key');
  });

  it('A9: keeps a secret marker out of the token only when encrypting', () => {
    const marker = `SECRET-${nodeCrypto.randomUUID()}`;
    const sealed = subject.seal({ note: marker }, binding());
    const { bytes } = splitToken(sealed);
    expect(sealed).not.toContain(marker);
    // HMAC mode is signed, not encrypted: the client can read the payload (documented).
    expect(bytes.toString('latin1').includes(marker)).toBe(!encrypt);
  });

  it('A10: compares with a constant-time primitive', async () => {
    if (encrypt) {
      const decipher = jest.spyOn(nodeCrypto, 'createDecipheriv');
      await subject.open(token, binding());
      expect(decipher).toHaveBeenCalledWith('aes-256-gcm', expect.any(nodeCrypto.KeyObject), expect.any(Buffer), {
        authTagLength: 16,
      });
      return;
    }
    const equal = jest.spyOn(nodeCrypto, 'timingSafeEqual');
    await subject.open(token, binding());
    expect(equal).toHaveBeenCalled();
    const callsForValid = equal.mock.calls.length;
    const { prefix, bytes } = splitToken(token);
    bytes[bytes.length - 1]! ^= 1;
    await expect(refusalOf(subject.open(joinToken(prefix, bytes), binding()))).resolves.toBe('bad_mac');
    expect(equal.mock.calls.length).toBe(callsForValid + 1);
    expect(equal.mock.results.at(-1)?.value).toBe(false);
  });
});

describe('AES-GCM plaintext (A9)', () => {
  it('leaves no plaintext claims in the shared Buffer pool after sealing', () => {
    const subject = codec({ encryptRequestState: true });
    const marker = `SECRET-${nodeCrypto.randomUUID()}`;
    subject.seal({ note: marker }, binding());
    // Small Buffers are slices of one pooled ArrayBuffer; a plaintext copy there would outlive the seal.
    const pool = Buffer.from(Buffer.allocUnsafe(1).buffer);
    expect(pool.includes(marker)).toBe(false);
  });
});

describe('AES-GCM tag length (A3)', () => {
  const subject = codec({ encryptRequestState: true });
  const token = subject.seal({ step: 1 }, binding());
  const { prefix, bytes } = splitToken(token);

  it.each([4, 8, 12, 15])('refuses a tag cut to %i bytes', async (tagBytes) => {
    const cut = bytes.subarray(0, bytes.length - 16 + tagBytes);
    await expect(refusalOf(subject.open(joinToken(prefix, cut), binding()))).resolves.toMatch(
      /decrypt_failed|malformed/,
    );
  });

  it.each([1, 4, 16])('refuses %i bytes appended after the tag', async (extra) => {
    const longer = Buffer.concat([bytes, nodeCrypto.randomBytes(extra)]);
    await expect(refusalOf(subject.open(joinToken(prefix, longer), binding()))).resolves.toBe('decrypt_failed');
  });

  it('refuses a token shorter than kid + salt + iv + tag + 1 byte without decrypting', async () => {
    const decipher = jest.spyOn(nodeCrypto, 'createDecipheriv');
    await expect(
      refusalOf(subject.open(joinToken(prefix, bytes.subarray(0, 4 + 16 + 12 + 16)), binding())),
    ).resolves.toBe('malformed');
    expect(decipher).not.toHaveBeenCalled();
  });
});

describe('nonce uniqueness and the GCM usage limit (A8)', () => {
  it('never repeats an IV, and no salt (one derived AES key) seals more than 2^16 tokens', () => {
    const subject = codec({ encryptRequestState: true });
    const bind = binding({ params: {} });
    const ivs = new Set<string>();
    const perSalt = new Map<string, number>();
    const mints = 150_000;
    for (let i = 0; i < mints; i++) {
      const { bytes } = splitToken(subject.seal(0, bind));
      ivs.add(bytes.toString('latin1', 20, 32));
      const salt = bytes.toString('latin1', 4, 20);
      perSalt.set(salt, (perSalt.get(salt) ?? 0) + 1);
    }
    expect(ivs.size).toBe(mints);
    expect(Math.max(...perSalt.values())).toBe(MAX_SEALS_PER_SALT);
    expect(perSalt.size).toBe(Math.ceil(mints / MAX_SEALS_PER_SALT));
  });

  it('derives the key of a salt once for opening, and only after a token with that salt authenticated', async () => {
    // Minted by another instance (same key, its own salt): the opener's own sealing salt is known without deriving.
    const subject = codec({ encryptRequestState: true });
    const token = codec({ encryptRequestState: true }).seal({ step: 1 }, binding());
    const { prefix, bytes } = splitToken(token);
    // Same salt, a fresh IV and a broken tag: a forgery.
    const forged = Buffer.from(bytes);
    forged[25]! ^= 1;
    const hmac = jest.spyOn(nodeCrypto, 'createHmac');
    const derivations = () => hmac.mock.calls.length;
    await expect(refusalOf(subject.open(joinToken(prefix, forged), binding()))).resolves.toBe('decrypt_failed');
    await expect(refusalOf(subject.open(joinToken(prefix, forged), binding()))).resolves.toBe('decrypt_failed');
    expect(derivations()).toBe(2); // a refused token leaves nothing behind
    await subject.open(token, binding());
    const afterFirstOpen = derivations();
    await subject.open(token, binding());
    expect(derivations()).toBe(afterFirstOpen); // remembered
    const own = subject.seal({ step: 2 }, binding());
    const afterSeal = derivations();
    await subject.open(own, binding());
    expect(derivations()).toBe(afterSeal); // its own sealing salt
  });
});
