/**
 * The claims inside the envelope. Short keys keep tokens small; times are epoch milliseconds.
 * Claims are parsed only after the envelope authenticated them, but still type-checked so a
 * leaked key cannot turn a malformed claim into a thrown TypeError further up.
 */
import { FrameworkError } from '../errors/framework-error';
import { MAX_CANONICAL_DEPTH } from './canonical-json';
import { StateRefusal } from './state-refusal';

export interface StateClaims {
  /** Claims format version. */
  v: 1;
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
  /** Params digest. */
  pd: string;
  /** Principal tag; absent when the flow started unauthenticated. */
  pt?: string;
  /** Payload; absent when it was undefined. */
  p?: unknown;
}

export const CLAIMS_VERSION = 1;

export function encodeClaims(claims: StateClaims): Buffer {
  // JSON.stringify overflows the stack near 5 000 levels; refuse far earlier, and clearly.
  if (nestsDeeperThan(claims.p, MAX_CANONICAL_DEPTH)) {
    throw new FrameworkError(
      'OMC_STATE_TOO_LARGE',
      `requestState payload nests deeper than ${MAX_CANONICAL_DEPTH} levels; flatten the state kept in ctx.state.`,
    );
  }
  return Buffer.from(JSON.stringify(claims), 'utf8');
}

export function decodeClaims(bytes: Buffer): StateClaims {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new StateRefusal('malformed', 'claims are not JSON');
  }
  if (!isValidClaims(parsed)) throw new StateRefusal('malformed', 'claims have the wrong shape');
  return parsed;
}

function isValidClaims(value: unknown): value is StateClaims {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const c = value as Record<string, unknown>;
  // Spelled out, not a list and a callback: this runs on every round that carries state.
  return (
    c['v'] === CLAIMS_VERSION &&
    typeof c['jti'] === 'string' &&
    typeof c['aud'] === 'string' &&
    typeof c['rev'] === 'string' &&
    typeof c['m'] === 'string' &&
    typeof c['t'] === 'string' &&
    typeof c['pd'] === 'string' &&
    Number.isSafeInteger(c['iat']) &&
    Number.isSafeInteger(c['exp']) &&
    Number.isSafeInteger(c['fst']) &&
    (c['pt'] === undefined || typeof c['pt'] === 'string')
  );
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
