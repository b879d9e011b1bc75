/** The checks an authenticated token's claims must pass against the clock and the retry request. */
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

/**
 * Equal strings, in time that depends on their length only (lengths of digests and tags are public): every
 * code unit is compared, the differences OR-ed together. A loop over a 43-character digest costs about half
 * what copying both into buffers for timingSafeEqual did (issue 34).
 */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
