/**
 * The binary claims layout (version 2) against malformed and hostile bytes: whatever an attacker
 * holding a key could authenticate, decoding answers with the claims or a 'malformed' refusal,
 * never another error. Also: old JSON (version 1) claims under a valid MAC are refused cleanly.
 */
import { createHmac } from 'node:crypto';
import { StateRefusal } from '../../../src/state';
import { claimsLength, decodeClaims, writeClaims, type ClaimsDraft } from '../../../src/state/claims';
import { HmacSha256 } from '../../../src/state/hmac-sha256';
import { KeyRing } from '../../../src/state/key-ring';
import { binding, codec, joinToken, refusalOf, T0, testKey } from './state-fixtures';

function draft(overrides: Partial<ClaimsDraft> = {}): ClaimsDraft {
  return {
    jti: Buffer.alloc(16, 7),
    iat: T0,
    exp: T0 + 60_000,
    fst: T0 - 5,
    aud: 'onemodelcontext',
    rev: '2026-07-28',
    m: 'tools/call',
    t: 'deploy',
    pd: 'x'.repeat(43),
    pt: 'y'.repeat(22),
    payloadJson: JSON.stringify({ step: 2, note: 'é€😀' }),
    ...overrides,
  };
}

function encoded(d: ClaimsDraft): Buffer {
  const out = Buffer.alloc(claimsLength(d));
  writeClaims(d, out, 0);
  return out;
}

/** The refusal detail when decoding `bytes` is refused as malformed; fails on any other outcome. */
function malformedDetail(bytes: Buffer): string {
  try {
    decodeClaims(bytes);
  } catch (error) {
    if (error instanceof StateRefusal && error.reason === 'malformed') return error.detail ?? '';
    throw error;
  }
  throw new Error('expected a malformed refusal, but the claims decoded');
}

describe('claims layout', () => {
  it('round-trips every field, with and without principal tag and payload', () => {
    expect(decodeClaims(encoded(draft()))).toEqual({
      jti: Buffer.alloc(16, 7).toString('base64url'),
      iat: T0,
      exp: T0 + 60_000,
      fst: T0 - 5,
      aud: 'onemodelcontext',
      rev: '2026-07-28',
      m: 'tools/call',
      t: 'deploy',
      pd: 'x'.repeat(43),
      pt: 'y'.repeat(22),
      p: { step: 2, note: 'é€😀' },
    });
    const bare = decodeClaims(encoded(draft({ pt: undefined, payloadJson: undefined })));
    expect(bare.pt).toBeUndefined();
    expect('p' in bare).toBe(false);
  });

  it('writes each string field as node\'s UTF-16LE encoder does, after its byte length (issue 34: a JS loop)', () => {
    const values = ['', 'tools/call', 'a\uD800', '\uDC00', '😀 é € \u0000 \uFFFF', 'x'.repeat(3000)];
    for (const aud of values) {
      const d = draft({ aud, pt: undefined, payloadJson: undefined });
      const at = 2 + 16 + 24 + 1 + d.pd.length;
      const bytes = encoded(d);
      const utf16 = Buffer.from(aud, 'utf16le');
      expect(bytes.readUInt32BE(at)).toBe(utf16.length);
      expect(bytes.subarray(at + 4, at + 4 + utf16.length).equals(utf16)).toBe(true);
      expect(decodeClaims(bytes).aud).toBe(aud);
    }
  });

  it('keeps strings with lone surrogates distinct from U+FFFD (no binding stands for another)', () => {
    for (const t of ['a\uD800', 'a\uDC00b', '\uFFFD', '']) expect(decodeClaims(encoded(draft({ t }))).t).toBe(t);
  });

  it('the length is exact', () => {
    const d = draft();
    expect(encoded(d).length).toBe(claimsLength(d));
  });

  it('refuses every truncation', () => {
    const bytes = encoded(draft({ payloadJson: undefined }));
    for (let n = 0; n < bytes.length; n++) expect(malformedDetail(bytes.subarray(0, n))).not.toBe('');
  });

  it('refuses a truncated payload', () => {
    const bytes = encoded(draft());
    expect(malformedDetail(bytes.subarray(0, bytes.length - 1))).toBe('payload is not JSON');
  });

  it('refuses other versions, old JSON claims among them', () => {
    for (const version of [0, 1, 3, 0x7b, 255]) {
      const bytes = encoded(draft());
      bytes[0] = version;
      expect(malformedDetail(bytes)).toBe('unsupported claims version');
    }
    expect(malformedDetail(Buffer.from(JSON.stringify({ v: 1, jti: 'x', iat: T0 }).padEnd(64)))).toBe(
      'unsupported claims version',
    );
  });

  it('refuses unknown flags and trailing bytes', () => {
    const flagged = encoded(draft());
    flagged[1] = 0x80 | 3;
    expect(malformedDetail(flagged)).toBe('unknown claims flags');
    const bare = encoded(draft({ payloadJson: undefined }));
    expect(malformedDetail(Buffer.concat([bare, Buffer.from([0])]))).toBe('trailing claims bytes');
  });

  it('refuses oversized and odd lengths', () => {
    const d = draft({ pt: undefined, payloadJson: undefined });
    const bytes = encoded(d);
    const audAt = 2 + 16 + 24 + 1 + 43; // the u32 length of aud
    for (const length of [0xfffffffe, 0x80000000, bytes.length, 2 ** 16]) {
      const hostile = Buffer.from(bytes);
      hostile.writeUInt32BE(length, audAt);
      expect(malformedDetail(hostile)).toBe('claims truncated');
    }
    const odd = Buffer.from(bytes);
    odd.writeUInt32BE(odd.readUInt32BE(audAt) - 1, audAt);
    expect(malformedDetail(odd)).toBe('odd UTF-16 length');
    const longDigest = Buffer.from(bytes);
    longDigest[2 + 16 + 24] = 255;
    expect(malformedDetail(longDigest)).not.toBe('');
  });

  it('refuses times that are not safe integers', () => {
    for (const time of [NaN, Infinity, 1.5, 2 ** 53, -(2 ** 60)]) {
      const bytes = encoded(draft());
      bytes.writeDoubleBE(time, 2 + 16 + 8);
      expect(malformedDetail(bytes)).toBe('time is not an integer');
    }
  });

  it('every single-bit flip decodes or is refused as malformed, nothing else', () => {
    const bytes = encoded(draft({ payloadJson: '{"a":[1,2,{"b":"c"}]}' }));
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      const flipped = Buffer.from(bytes);
      flipped[bit >> 3]! ^= 1 << (bit & 7);
      try {
        decodeClaims(flipped);
      } catch (error) {
        expect(error).toBeInstanceOf(StateRefusal);
        expect((error as StateRefusal).reason).toBe('malformed');
      }
    }
  });
});

describe('hostile claims under a valid MAC (a leaked key)', () => {
  const ring = KeyRing.fromOption(testKey('main'));
  const { kid, macKey } = ring.minting;

  function signed(claims: Buffer): string {
    const mac = createHmac('sha256', macKey).update('v1.').update(kid).update(claims).digest();
    return joinToken('v1.', Buffer.concat([kid, claims, mac]));
  }

  it('a token signed by createHmac opens: HmacSha256 computes the same MAC', async () => {
    const subject = codec();
    const token = subject.seal({ ok: true }, binding());
    const { payload } = await subject.open(token, binding());
    expect(payload).toEqual({ ok: true });
    const body = Buffer.from(token.slice(3), 'base64url');
    expect(signed(body.subarray(4, body.length - 32))).toBe(token);
  });

  it('old JSON claims, truncated claims and overlong lengths are refused as malformed', async () => {
    const subject = codec();
    const json = JSON.stringify({ v: 1, jti: 'AAAA', iat: T0, exp: T0 + 1, fst: T0, aud: 'onemodelcontext' });
    const bytes = encoded(draft());
    const overlong = Buffer.from(bytes);
    overlong.writeUInt32BE(0xfffffffe, 2 + 16 + 24 + 1 + 43 + 1 + 22);
    for (const claims of [Buffer.from(json), bytes.subarray(0, 30), overlong, Buffer.from([2])]) {
      await expect(refusalOf(subject.open(signed(claims), binding()))).resolves.toBe('malformed');
    }
  });
});

describe('HmacSha256', () => {
  it('equals createHmac for keys shorter than, equal to and longer than a block', () => {
    for (const keyLength of [1, 32, 64, 65, 200]) {
      const key = Buffer.alloc(keyLength, keyLength);
      for (const message of [Buffer.alloc(0), Buffer.from('abc'), Buffer.alloc(3000, 9)]) {
        const padded = Buffer.concat([Buffer.alloc(64), message]);
        expect(new HmacSha256(key).sign(padded)).toEqual(createHmac('sha256', key).update(message).digest());
      }
    }
  });
});

test('signing leaves no padded key behind in the caller buffer', () => {
  const padded = Buffer.concat([Buffer.alloc(64, 0xaa), Buffer.from('message')]);
  new HmacSha256(Buffer.alloc(32, 1)).sign(padded);
  expect(padded.subarray(0, 64).every((b) => b === 0)).toBe(true);
});
