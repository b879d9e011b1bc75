/**
 * RFC 8785 (JSON Canonicalization Scheme) for values that came out of JSON.parse.
 *
 * Why our own: the params digest must be identical for every spelling of the same JSON
 * (key order, whitespace, `1.0` vs `1`) and must never be driven into a stack overflow
 * by an attacker's nesting bomb, so depth is capped before recursing.
 */

/** Deepest nesting of arrays/objects accepted (matches the JSON-RPC decoder's cap). */
export const MAX_CANONICAL_DEPTH = 64;

export type CanonicalJsonFailure = 'too_deep' | 'lone_surrogate' | 'not_json';

export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';
  constructor(
    readonly reason: CanonicalJsonFailure,
    message: string,
  ) {
    super(message);
  }
}

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Canonical JSON text of `value`. Throws CanonicalJsonError when the value nests deeper than
 * `maxDepth` containers, holds a lone surrogate (JCS requires well-formed Unicode; hashing
 * would otherwise map distinct strings to one U+FFFD), or is not plain JSON data.
 */
export function canonicalJson(value: unknown, maxDepth: number = MAX_CANONICAL_DEPTH): string {
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > 1000) {
    throw new RangeError('maxDepth must be an integer between 0 and 1000');
  }
  return serialize(value, 0, maxDepth);
}

function serialize(value: unknown, depth: number, maxDepth: number): string {
  switch (typeof value) {
    case 'string':
      return serializeString(value);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError('not_json', `non-finite number ${value}`);
      return JSON.stringify(value); // ECMAScript Number::toString is exactly what JCS specifies
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (depth >= maxDepth) {
        throw new CanonicalJsonError('too_deep', `JSON nests deeper than ${maxDepth} levels`);
      }
      return Array.isArray(value)
        ? serializeArray(value, depth + 1, maxDepth)
        : serializeObject(value, depth + 1, maxDepth);
    default:
      throw new CanonicalJsonError('not_json', `a ${typeof value} is not a JSON value`);
  }
}

/** `String.prototype.isWellFormed` (Node ≥ 20) is native and fast; the regex is the fallback. */
const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !LONE_SURROGATE.test(text);

/** Printable ASCII but `"` and `\\`: JSON.stringify would only add the quotes (most names, keys and ids). */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function serializeString(text: string): string {
  if (PLAIN.test(text)) return '"' + text + '"';
  if (!isWellFormed(text)) {
    throw new CanonicalJsonError('lone_surrogate', 'string holds a lone UTF-16 surrogate');
  }
  return JSON.stringify(text);
}

/**
 * Quoted texts of object keys already seen. Keys repeat from request to request, and keys out of
 * JSON.parse are internalized (their hash is known), so one lookup replaces the regex test and the
 * quoting. Bounded, as the keys are the caller's: short keys only, all let go when full.
 */
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 512;
const MAX_QUOTED_KEY_LENGTH = 64;

function serializeKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = serializeString(key);
    if (key.length <= MAX_QUOTED_KEY_LENGTH) {
      if (quotedKeys.size >= MAX_QUOTED_KEYS) quotedKeys.clear();
      quotedKeys.set(key, quoted);
    }
  }
  return quoted;
}

function serializeArray(items: readonly unknown[], depth: number, maxDepth: number): string {
  // String concatenation, not parts + join: no array per container.
  let text = '[';
  for (let i = 0; i < items.length; i++) text += (i === 0 ? '' : ',') + serialize(items[i], depth, maxDepth);
  return text + ']';
}

function serializeObject(object: object, depth: number, maxDepth: number, omit?: readonly string[]): string {
  const prototype: unknown = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new CanonicalJsonError('not_json', 'only plain objects are JSON objects');
  }
  const record = object as Record<string, unknown>;
  const keys = sortedKeys(record);
  let text = '{';
  for (const key of keys) {
    if (omit !== undefined && omit.includes(key)) continue;
    text += (text.length === 1 ? '' : ',') + serializeKey(key) + ':' + serialize(record[key], depth, maxDepth);
  }
  return text + '}';
}

/** Up to this many keys are insertion-sorted: Array.prototype.sort's setup costs more than sorting them. */
const FEW_KEYS = 12;

/**
 * The object's own keys in UTF-16 code-unit order, the order RFC 8785 §3.2.3 prescribes: the default sort's,
 * and the order `>` compares strings in (keys are distinct, so stability does not matter).
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > FEW_KEYS) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * canonicalJson of `value` with the top-level keys in `omit` left out when it is a plain object
 * (other values as canonicalJson): the same text as for a copy without those keys, without the copy.
 */
export function canonicalJsonOmitting(value: unknown, omit: readonly string[]): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return canonicalJson(value);
  return serializeObject(value, 1, MAX_CANONICAL_DEPTH, omit);
}
