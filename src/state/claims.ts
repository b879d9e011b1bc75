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
  return (
    c['v'] === CLAIMS_VERSION &&
    ['jti', 'aud', 'rev', 'm', 't', 'pd'].every((k) => typeof c[k] === 'string') &&
    ['iat', 'exp', 'fst'].every((k) => Number.isSafeInteger(c[k])) &&
    (c['pt'] === undefined || typeof c['pt'] === 'string')
  );
}

/** Iterative, so neither deep nor cyclic values can overflow the stack here. */
function nestsDeeperThan(root: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limit) return true;
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) stack.push([child, depth + 1]);
  }
  return false;
}
