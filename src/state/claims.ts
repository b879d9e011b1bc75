/**
 * The claims inside the envelope, in a binary layout (times are epoch milliseconds):
 *
 *   u8 version (2) ‖ u8 flags ‖ jti16 ‖ f64 iat ‖ f64 exp ‖ f64 fst
 *   ‖ u8 len ‖ pd (ASCII) ‖ [u8 len ‖ pt (ASCII)]
 *   ‖ (u32 len ‖ UTF-16LE) × aud, rev, m, t ‖ [payload as UTF-8 JSON, to the end]
 *
 * Binary fields and raw ids instead of a JSON object: nothing but the payload is stringified or
 * parsed. Strings are UTF-16LE, which keeps every JS string (lone surrogates too) distinct;
 * UTF-8 would fold them into U+FFFD and let one binding stand for another. Claims are read only
 * after the envelope authenticated them, but every length and type is still checked, so a
 * leaked key cannot turn a malformed claim into a thrown TypeError further up. Version 1 (a JSON
 * object, first byte `{`) is refused like any other unknown version.
 */
import { FrameworkError } from '../errors/framework-error';
import { MAX_CANONICAL_DEPTH } from './canonical-json';
import { StateRefusal } from './state-refusal';

export interface StateClaims {
  /** Random token id (base64url of 16 bytes): the single-use key. */
  jti: string;
  /** Issued at. */
  iat: number;
  /** Expiry of this round. */
  exp: number;
  /** When the whole flow started; bounds it with maxFlowLifetime. */
  fst: number;
  aud: string;
  rev: string;
  /** Method and target of the originating request. */
  m: string;
  t: string;
  /** Params digest (base64url). */
  pd: string;
  /** Principal tag (base64url); absent when the flow started unauthenticated. */
  pt?: string;
  /** Payload; absent when it was undefined. */
  p?: unknown;
}

/** What seal writes: the claims with the raw token id and the payload already as JSON text. */
export interface ClaimsDraft extends Omit<StateClaims, 'jti' | 'p'> {
  jti: Buffer;
  /** `JSON.stringify(payload)`; undefined when the payload has no JSON form (it opens as absent). */
  payloadJson: string | undefined;
}

export const CLAIMS_VERSION = 2;
export const TOKEN_ID_BYTES = 16;
const FLAG_PRINCIPAL = 1;
const FLAG_PAYLOAD = 2;
/** version, flags, jti, three f64 times. */
const FIXED_BYTES = 2 + TOKEN_ID_BYTES + 3 * 8;
const MAX_SHORT_FIELD = 255;

/** The payload as JSON text (undefined stays absent); refuses payloads nested too deep to round-trip. */
export function payloadJson(payload: unknown): string | undefined {
  // JSON.stringify overflows the stack near 5 000 levels; refuse far earlier, and clearly.
  if (nestsDeeperThan(payload, MAX_CANONICAL_DEPTH)) {
    throw new FrameworkError(
      'OMC_STATE_TOO_LARGE',
      `requestState payload nests deeper than ${MAX_CANONICAL_DEPTH} levels; flatten the state kept in ctx.state.`,
    );
  }
  return payload === undefined ? undefined : JSON.stringify(payload);
}

/** Exact byte length of the encoded claims. */
export function claimsLength(d: ClaimsDraft): number {
  return (
    FIXED_BYTES +
    1 +
    shortFieldLength(d.pd) +
    (d.pt === undefined ? 0 : 1 + shortFieldLength(d.pt)) +
    16 +
    2 * (d.aud.length + d.rev.length + d.m.length + d.t.length) +
    (d.payloadJson === undefined ? 0 : Buffer.byteLength(d.payloadJson, 'utf8'))
  );
}

/** Writes the claims at `offset`; `into` has room for claimsLength(d) bytes there. */
export function writeClaims(d: ClaimsDraft, into: Buffer, offset: number): void {
  let at = offset;
  into[at++] = CLAIMS_VERSION;
  into[at++] = (d.pt === undefined ? 0 : FLAG_PRINCIPAL) | (d.payloadJson === undefined ? 0 : FLAG_PAYLOAD);
  // Every byte of the (unsafely allocated) token is written: a short id must not leave old memory in it.
  if (d.jti.length !== TOKEN_ID_BYTES) throw new RangeError(`token id must be ${TOKEN_ID_BYTES} bytes`);
  at += d.jti.copy(into, at);
  at = into.writeDoubleBE(d.iat, at);
  at = into.writeDoubleBE(d.exp, at);
  at = into.writeDoubleBE(d.fst, at);
  at = writeShort(into, at, d.pd);
  if (d.pt !== undefined) at = writeShort(into, at, d.pt);
  at = writeLong(into, at, d.aud);
  at = writeLong(into, at, d.rev);
  at = writeLong(into, at, d.m);
  at = writeLong(into, at, d.t);
  if (d.payloadJson !== undefined) into.write(d.payloadJson, at, 'utf8');
}

/** Base64url ids and digests: ASCII by construction, one byte per character. */
function shortFieldLength(value: string): number {
  if (value.length > MAX_SHORT_FIELD) throw new RangeError('requestState digest or tag longer than 255');
  return value.length;
}

function writeShort(into: Buffer, at: number, value: string): number {
  into[at] = value.length;
  return at + 1 + into.write(value, at + 1, 'latin1');
}

/**
 * u32 byte length, then the code units little-endian (what `write(…, 'utf16le')` writes, lone surrogates
 * too). Written here: these are names, revisions and audiences of a few dozen characters, and a loop costs
 * less than a call into node's encoder per field (issue 34).
 */
function writeLong(into: Buffer, at: number, value: string): number {
  into.writeUInt32BE(2 * value.length, at);
  let p = at + 4;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    into[p++] = unit & 0xff;
    into[p++] = unit >>> 8;
  }
  return p;
}

export function decodeClaims(bytes: Buffer): StateClaims {
  const r = new ClaimsReader(bytes);
  if (bytes.length < FIXED_BYTES) throw malformed('claims too short');
  if (bytes[0] !== CLAIMS_VERSION) throw malformed('unsupported claims version');
  const flags = bytes[1]!;
  if ((flags & ~(FLAG_PRINCIPAL | FLAG_PAYLOAD)) !== 0) throw malformed('unknown claims flags');
  r.at = 2 + TOKEN_ID_BYTES;
  const claims: StateClaims = {
    jti: bytes.toString('base64url', 2, 2 + TOKEN_ID_BYTES),
    iat: r.time(),
    exp: r.time(),
    fst: r.time(),
    pd: r.short(),
    pt: (flags & FLAG_PRINCIPAL) === 0 ? undefined : r.short(),
    aud: r.long(),
    rev: r.long(),
    m: r.long(),
    t: r.long(),
  };
  if ((flags & FLAG_PAYLOAD) !== 0) claims.p = r.json();
  else if (r.at !== bytes.length) throw malformed('trailing claims bytes');
  return claims;
}

/** Reads fields in order; every read checks its length against what is left. */
class ClaimsReader {
  at = 0;
  constructor(private readonly bytes: Buffer) {}

  time(): number {
    const value = this.bytes.readDoubleBE(this.take(8));
    if (!Number.isSafeInteger(value)) throw malformed('time is not an integer');
    return value;
  }

  short(): string {
    const length = this.bytes[this.take(1)]!;
    const start = this.take(length);
    return this.bytes.toString('latin1', start, start + length);
  }

  long(): string {
    const length = this.bytes.readUInt32BE(this.take(4));
    if (length % 2 !== 0) throw malformed('odd UTF-16 length');
    const start = this.take(length);
    return this.bytes.toString('utf16le', start, start + length);
  }

  json(): unknown {
    try {
      return JSON.parse(this.bytes.toString('utf8', this.at));
    } catch {
      throw malformed('payload is not JSON');
    }
  }

  /** Start of the next `n` bytes, or a refusal when fewer are left. */
  private take(n: number): number {
    const start = this.at;
    if (n > this.bytes.length - start) throw malformed('claims truncated');
    this.at = start + n;
    return start;
  }
}

function malformed(detail: string): StateRefusal {
  return new StateRefusal('malformed', detail);
}

/**
 * Recursive, but never deeper than `limit` (it answers true there), so neither deep nor cyclic
 * values can overflow the stack; allocates nothing.
 */
function nestsDeeperThan(value: unknown, limit: number, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth >= limit) return true;
  if (Array.isArray(value)) {
    for (const child of value) if (nestsDeeperThan(child, limit, depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    if (
      Object.prototype.hasOwnProperty.call(value, key) &&
      nestsDeeperThan((value as Record<string, unknown>)[key], limit, depth + 1)
    )
      return true;
  }
  return false;
}
