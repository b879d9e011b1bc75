import fc from 'fast-check';
import { decodeBase64Url, encodeBase64Url } from '../../../src/state';

describe('strict base64url', () => {
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = encodeBase64Url(bytes);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(decodeBase64Url(text)?.equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('encodes a view of a larger buffer, not the whole buffer', () => {
    const whole = Buffer.from([1, 2, 3, 4, 5, 6]);
    expect(encodeBase64Url(whole.subarray(2, 4))).toBe(Buffer.from([3, 4]).toString('base64url'));
  });

  // A2: Node's own decoder accepts every one of these and returns the same bytes.
  it('refuses every non-canonical spelling of a 32-byte MAC (A2)', () => {
    const mac = Buffer.alloc(32, 0xa5);
    mac[0] = 0xfb; // gives "-" and "_" in the text, so the standard alphabet spelling differs
    mac[1] = 0xff;
    const canonical = encodeBase64Url(mac);
    expect(canonical).toMatch(/[-_]/);
    expect(canonical).toHaveLength(43);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const head = canonical.slice(0, -1);
    const sameBytes = [...alphabet]
      .map((c) => head + c)
      .filter((t) => t !== canonical && Buffer.from(t, 'base64url').equals(Buffer.from(canonical, 'base64url')));
    expect(sameBytes).toHaveLength(3); // the other pad-bit spellings
    const forms = [
      ...sameBytes,
      `${canonical}=`,
      `${canonical} `,
      ` ${canonical}`,
      `${canonical.slice(0, 20)}\n${canonical.slice(20)}`,
      canonical.replace(/-/g, '+').replace(/_/g, '/'),
      `${canonical}.`,
      `${canonical}!`,
      `${head}/`,
      `${head}+`,
    ];
    expect(forms).toHaveLength(12);
    expect(forms.filter((form) => decodeBase64Url(form) !== undefined)).toEqual([]);
    expect(decodeBase64Url(canonical)).toBeDefined();
  });

  it('refuses a length that no byte string encodes to', () => {
    expect(decodeBase64Url('A')).toBeUndefined();
    expect(decodeBase64Url('AAAAA')).toBeUndefined();
  });

  it('accepts the empty string as zero bytes', () => {
    expect(decodeBase64Url('')?.length).toBe(0);
  });
});
