/**
 * JSON text put together from parts that are already text (issue 34). On Node 20, JSON.stringify
 * writes each string of a small output on a per-character slow path (≈ 29 instructions a character,
 * bench/profile-notes.md), so a reply whose big parts are known text — a constant made once, a token
 * of base64url characters, a request already stringified for its fingerprint — is joined around
 * them instead. Every function here returns exactly what JSON.stringify returns for the value it
 * stands for, or undefined when it cannot say (the caller then stringifies the value).
 */
import type { RequestId } from './jsonrpc';

/** Printable ASCII but `"` and `\`: JSON.stringify only adds the quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** `JSON.stringify(text)`. */
export function jsonString(text: string): string {
  return PLAIN.test(text) ? '"' + text + '"' : JSON.stringify(text);
}

/** `JSON.stringify(id)` for a string or number id; undefined for anything else. */
function idText(id: unknown): string | undefined {
  if (typeof id === 'string') return jsonString(id);
  if (typeof id !== 'number') return undefined;
  // A finite number's JSON is its ECMAScript string (-0 included: "0"); any other number is null.
  return Number.isFinite(id) ? '' + id : 'null';
}

/**
 * `JSON.stringify(success(id, result))` given `resultJson`, the result's own JSON text; undefined
 * when the id is neither a string nor a number (the decoder lets no other id through).
 */
export function successJson(id: RequestId, resultJson: string): string | undefined {
  const text = idText(id);
  return text === undefined ? undefined : '{"jsonrpc":"2.0","id":' + text + ',"result":' + resultJson + '}';
}

/**
 * `JSON.stringify(object)` with one more last key, given `text` = `JSON.stringify(object)` before
 * the key was added and `valueText` the new value's JSON text. The caller guarantees the key was
 * not there before and the object has no `toJSON`.
 */
export function withLastKey(text: string, keyText: string, valueText: string): string {
  const pair = keyText + ':' + valueText + '}';
  return text.length === 2 ? '{' + pair : text.slice(0, -1) + ',' + pair;
}
