/** The checks an authenticated token's claims must pass against the clock and the retry request. */
import { timingSafeEqual } from 'node:crypto';
import { paramsDigestKnown, paramsDigestOnce, principalTag, type StateBinding } from './binding';
import { CanonicalJsonError } from './canonical-json';
import type { StateClaims } from './claims';
import { StateRefusal } from './state-refusal';

/** Clock skew tolerated between instances: an `iat` further in the future is refused. */
export const FUTURE_IAT_SKEW_MS = 60_000;

export function checkTimes(claims: StateClaims, now: number, flowLifetimeMs: number): void {
  if (claims.fst > claims.iat || claims.exp <= claims.iat) throw new StateRefusal('malformed', 'inconsistent times');
  if (claims.iat > now + FUTURE_IAT_SKEW_MS) throw new StateRefusal('future_iat');
  if (now >= claims.exp) throw new StateRefusal('expired');
  if (now >= claims.fst + flowLifetimeMs) throw new StateRefusal('flow_expired');
}

/** `knownParamsText`: the canonical params text `claims.pd` digests, when this process minted the token. */
export function checkBinding(
  claims: StateClaims,
  binding: StateBinding,
  bindingKey: Buffer,
  knownParamsText?: string,
): void {
  if (claims.rev !== binding.revision) throw new StateRefusal('revision');
  checkPrincipal(claims.pt, principalTag(bindingKey, binding.principal));
  if (claims.m !== binding.method) throw new StateRefusal('binding', 'method');
  if (claims.t !== binding.target) throw new StateRefusal('binding', 'target');
  let digest: string;
  try {
    digest =
      knownParamsText === undefined
        ? paramsDigestOnce(binding.params)
        : paramsDigestKnown(binding.params, claims.pd, knownParamsText);
  } catch (error) {
    if (error instanceof CanonicalJsonError) throw new StateRefusal('binding', `params: ${error.reason}`);
    throw error;
  }
  if (!constantTimeEqual(claims.pd, digest)) throw new StateRefusal('binding', 'params');
}

/** Minted with a principal and presented without one, or the reverse, is refused too. */
function checkPrincipal(minted: string | undefined, presented: string | undefined): void {
  if (minted === undefined && presented === undefined) return;
  if (minted === undefined || presented === undefined) throw new StateRefusal('principal', 'drift');
  if (!constantTimeEqual(minted, presented)) throw new StateRefusal('principal');
}

/** Scratch for the comparison: the checks are synchronous, so it is never shared. */
const SCRATCH_CHARS = 128;
const left = Buffer.alloc(2 * SCRATCH_CHARS);
const right = Buffer.alloc(2 * SCRATCH_CHARS);

/** Digests and tags are short: compared in the scratch buffers, a longer string through copies. */
function constantTimeEqual(a: string, b: string): boolean {
  // timingSafeEqual throws on a length mismatch; lengths of tags and digests are public.
  if (a.length !== b.length) return false;
  if (a.length > SCRATCH_CHARS) return timingSafeEqual(Buffer.from(a, 'utf16le'), Buffer.from(b, 'utf16le'));
  left.write(a, 0, 'utf16le');
  right.write(b, 0, 'utf16le');
  return timingSafeEqual(left.subarray(0, 2 * a.length), right.subarray(0, 2 * a.length));
}
