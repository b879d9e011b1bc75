import fc from 'fast-check';
import canonicalize from 'canonicalize';
import { canonicalJson, CanonicalJsonError, MAX_CANONICAL_DEPTH } from '../../../src/state';

function nested(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
}

function failureOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof CanonicalJsonError) return error.reason;
    throw error;
  }
  return 'accepted';
}

describe('canonicalJson (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units and drops whitespace (RFC 8785 §3.2.3 sample)', () => {
    const value = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // Object.keys would put '1' first (integer-like keys), so read the order off the text.
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    const expected = `{${order.map((k) => `${JSON.stringify(k)}:${JSON.stringify((value as Record<string, string>)[k])}`).join(',')}}`;
    expect(canonicalJson(value)).toBe(expected);
    expect(expected.startsWith('{"\\r":"Carriage Return","1":"One"')).toBe(true);
  });

  it('serialises numbers the ECMAScript way (RFC 8785 appendix B samples)', () => {
    const samples: Array<[number, string]> = [
      [0, '0'], [-0, '0'], [1.0, '1'], [1e21, '1e+21'], [1e-7, '1e-7'], [333333333.3333333, '333333333.3333333'],
      [5e-324, '5e-324'], [1.7976931348623157e308, '1.7976931348623157e+308'], [9007199254740992, '9007199254740992'],
      [295147905179352830000, '295147905179352830000'], [0.000001, '0.000001'],
    ];
    for (const [number, text] of samples) expect(canonicalJson(number)).toBe(text);
  });

  it('refuses non-finite numbers and non-JSON values', () => {
    for (const value of [
      NaN,
      Infinity,
      -Infinity,
      undefined,
      () => 1,
      Symbol('s'),
      1n,
      new Date(0),
      new Map(),
      [undefined],
      { a: undefined },
    ]) {
      expect(failureOf(() => canonicalJson(value))).toBe('not_json');
    }
  });

  it('refuses lone surrogates in values and keys, accepts paired ones', () => {
    for (const text of ['x\uDC00', 'x\uDFFF', '\uD800', '\uD800x', 'a\uDBFF\uDBFF\uDC00'.slice(0, 2)]) {
      expect(failureOf(() => canonicalJson(text))).toBe('lone_surrogate');
      expect(failureOf(() => canonicalJson({ [text]: 1 }))).toBe('lone_surrogate');
    }
    expect(canonicalJson('\uD83D\uDE00')).toBe('"\uD83D\uDE00"');
  });

  it(`accepts ${MAX_CANONICAL_DEPTH} levels of nesting and refuses one more, without a RangeError`, () => {
    expect(() => canonicalJson(nested(MAX_CANONICAL_DEPTH))).not.toThrow();
    for (const depth of [MAX_CANONICAL_DEPTH + 1, 5_000, 100_000]) {
      expect(failureOf(() => canonicalJson(nested(depth)))).toBe('too_deep');
    }
  });

  it('agrees with the canonicalize package on 10 000 random JSON values (B6 differential)', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6, stringUnit: 'grapheme' }), (value) => {
        compared++;
        // Round-trip through JSON text so -0 and key order are whatever a parser produces.
        const parsed: unknown = JSON.parse(JSON.stringify(value));
        expect(canonicalJson(parsed)).toBe(canonicalize(parsed));
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 10_000 },
    );
    expect(compared).toBe(10_000);
  });

  it('orders 0 to 40 keys as canonicalize does (the in-place sort of short key lists and Array#sort of long ones)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 4 }), fc.integer(), { maxKeys: 40 }),
        (value) => expect(canonicalJson(value)).toBe(canonicalize(value)),
      ),
      { numRuns: 2_000 },
    );
  });

  it('either agrees with canonicalize or refuses a lone surrogate, for arbitrary UTF-16 strings', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }), (value) => {
        let ours: string;
        try {
          ours = canonicalJson(value);
        } catch (error) {
          expect(error).toBeInstanceOf(CanonicalJsonError);
          expect((error as CanonicalJsonError).reason).toBe('lone_surrogate');
          return;
        }
        expect(ours).toBe(canonicalize(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes every ASCII string (the quotes-only fast path and the escapes) as JSON.stringify does', () => {
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));
    const strings = [...ascii, ...ascii.map((c) => `name_${c}-x`), ascii.join(''), 'plain text', '', 'é', '\u2028'];
    for (const text of strings) {
      expect(canonicalJson(text)).toBe(JSON.stringify(text));
      expect(canonicalJson({ [text]: text })).toBe(JSON.stringify({ [text]: text }));
    }
  });

  it('is insensitive to key order and whitespace of the source text', () => {
    const a = JSON.parse('{"b": [1.0, {"y": 2, "x": 1}], "a": "\\u0041"}') as unknown;
    const b = JSON.parse('{"a":"A","b":[1,{"x":1,"y":2}]}') as unknown;
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":"A","b":[1,{"x":1,"y":2}]}');
  });
  it('keys remembered across calls give the same text, escapes included, past the memory\'s bound', () => {
    const keys = ['a', 'quote"d', 'back\\slash', 'ctl\u0001', 'é', 'x'.repeat(65), '__proto__'];
    for (let round = 0; round < 3; round++) {
      for (const key of keys) {
        const value = JSON.parse(`{${JSON.stringify(key)}:1}`) as unknown;
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }
      // More distinct keys than the memory keeps: it is let go and refilled, texts unchanged.
      for (let i = 0; i < 600; i++) expect(canonicalJson({ [`k${i}`]: i })).toBe(`{"k${i}":${i}}`);
    }
    // A lone surrogate key is refused each time, never remembered.
    for (let i = 0; i < 2; i++) expect(failureOf(() => canonicalJson({ 'x\uD800': 1 }))).toBe('lone_surrogate');
  });
});
