/**
 * Turns the `requestStateKey` option into raw key bytes, refusing anything an operator would
 * regret in production: short keys, duplicates, keys with obviously no entropy.
 */
import { FrameworkError } from '../errors/framework-error';

export type RequestStateKeyInput = string | Uint8Array;

export const MIN_KEY_BYTES = 32;
export const MAX_RING_KEYS = 4;

export const KEY_GENERATION_HINT =
  `Generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

/** Copies of the configured keys, minting key first. Throws FrameworkError('OMC_INVALID_OPTIONS'). */
export function parseKeyRingInput(input: unknown): Buffer[] {
  const entries = Array.isArray(input) ? (input as unknown[]) : [input];
  if (entries.length === 0) invalid('requestStateKey is an empty array; give at least one key.');
  if (entries.length > MAX_RING_KEYS) {
    invalid(
      `requestStateKey holds ${entries.length} keys; a ring holds at most ${MAX_RING_KEYS} (current first, then the ones still accepted).`,
    );
  }
  const keys = entries.map((entry, i) =>
    parseKey(entry, Array.isArray(input) ? `requestStateKey[${i}]` : 'requestStateKey'),
  );
  for (let i = 0; i < keys.length; i++) {
    for (let j = 0; j < i; j++) {
      if (keys[i]!.equals(keys[j]!))
        invalid(`requestStateKey[${i}] repeats requestStateKey[${j}]; each key in the ring must be distinct.`);
    }
  }
  return keys;
}

function parseKey(entry: unknown, label: string): Buffer {
  let bytes: Buffer;
  if (typeof entry === 'string') bytes = decodeKeyText(entry.trim(), label);
  else if (entry instanceof Uint8Array)
    bytes = Buffer.from(entry); // a copy: later mutation of the caller's buffer cannot change our key
  else
    invalid(
      `${label} must be a string (base64url, base64 or hex) or a Uint8Array/Buffer, got ${describe(entry)}. ${KEY_GENERATION_HINT}`,
    );
  if (bytes.length < MIN_KEY_BYTES) {
    invalid(
      `${label} is ${bytes.length} bytes; at least ${MIN_KEY_BYTES} random bytes are required. ${KEY_GENERATION_HINT}`,
    );
  }
  if (looksLowEntropy(bytes)) {
    invalid(
      `${label} has an obviously non-random pattern (repeated or sequential bytes); use random bytes. ${KEY_GENERATION_HINT}`,
    );
  }
  return bytes;
}

function decodeKeyText(text: string, label: string): Buffer {
  if (text.startsWith('hex:')) return decodeHex(text.slice(4), label);
  if (text.startsWith('base64url:')) return decodeBase64Any(text.slice(10), label);
  if (text.startsWith('base64:')) return decodeBase64Any(text.slice(7), label);
  // Autodetect: an even run of hex digits long enough for 32 bytes is read as hex.
  const hexDigits = /^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0;
  if (hexDigits && text.length >= MIN_KEY_BYTES * 2) return decodeHex(text, label);
  try {
    return decodeBase64Any(text, label);
  } catch (error) {
    // Even hex too short for 32 bytes (e.g. 31 bytes): name the real problem, not the encoding.
    if (!hexDigits) throw error;
    return decodeHex(text, label);
  }
}

function decodeHex(text: string, label: string): Buffer {
  if (!/^[0-9a-fA-F]*$/.test(text) || text.length % 2 !== 0) {
    invalid(`${label} is not valid hex (an even number of 0-9a-f digits). ${KEY_GENERATION_HINT}`);
  }
  return Buffer.from(text, 'hex');
}

/** Standard or URL-safe alphabet, padding optional, but not both alphabets mixed. */
function decodeBase64Any(text: string, label: string): Buffer {
  const standard = /^[A-Za-z0-9+/]*={0,2}$/.test(text);
  const urlSafe = /^[A-Za-z0-9_-]*={0,2}$/.test(text);
  const unpadded = text.replace(/=+$/, '');
  const bytes = standard || urlSafe ? Buffer.from(unpadded, 'base64url') : undefined;
  const roundTrip = bytes?.toString('base64url');
  if (!bytes || unpadded.length % 4 === 1 || roundTrip !== unpadded.replace(/\+/g, '-').replace(/\//g, '_')) {
    invalid(
      `${label} is neither hex nor canonical base64/base64url (prefix it with "hex:" or "base64:" to say which). ${KEY_GENERATION_HINT}`,
    );
  }
  return bytes;
}

/** Catches placeholders such as Buffer.alloc(32), 'a'.repeat(43) decoded, or 0x00..0x1f. */
function looksLowEntropy(bytes: Buffer): boolean {
  if (new Set(bytes).size < 8) return true;
  const step = (bytes[1]! - bytes[0]! + 256) % 256;
  for (let i = 2; i < bytes.length; i++) {
    if ((bytes[i]! - bytes[i - 1]! + 256) % 256 !== step) return false;
  }
  return true;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a nested array';
  return typeof value === 'object'
    ? `an object (${(value as object).constructor?.name ?? 'no prototype'})`
    : `a ${typeof value}`;
}

function invalid(message: string): never {
  throw new FrameworkError('OMC_INVALID_OPTIONS', message);
}
