/** The verifier interface every kind of access token goes through, and its refusal. */

/** What a verifier established about a token. */
export interface VerifiedToken {
  /** `sub`: the resource owner (for client credentials, usually the client). */
  readonly subject?: string;
  readonly clientId?: string;
  readonly issuer?: string;
  /** Granted scopes (the `scope` claim split on spaces). */
  readonly scopes: readonly string[];
  /** Every claim of the token (or of the introspection answer). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** Verifies one access token. Throw `InvalidTokenError` to refuse it (401 `invalid_token`). */
export interface TokenVerifier {
  verify(token: string): Promise<VerifiedToken>;
}

/**
 * A token that must not be accepted. `reason` goes to the server logger only; the client gets a
 * generic description. A verifier that cannot answer (its authorization server is down) throws
 * anything else: the client gets 503.
 */
export class InvalidTokenError extends Error {
  constructor(readonly reason: string) {
    super(`invalid access token: ${reason}`);
    this.name = 'InvalidTokenError';
  }
}

/** The `scope` claim (a space-separated string, or an array some servers send) as a list. */
export function scopesOf(claim: unknown): string[] {
  if (typeof claim === 'string') return claim.split(' ').filter((s) => s !== '');
  if (Array.isArray(claim)) return claim.filter((s): s is string => typeof s === 'string');
  return [];
}
