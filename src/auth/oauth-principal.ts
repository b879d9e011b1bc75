/**
 * The principal of a verified access token. `id` (which binds legacy sessions and every
 * requestState) is the subject; a token without `sub` is its client's (`client:<client_id>`).
 */
import type { Principal } from '../context/principal';
import { InvalidTokenError, type VerifiedToken } from './token-verifier';

export interface OAuthPrincipal extends Principal {
  readonly subject?: string;
  readonly clientId?: string;
  readonly issuer?: string;
  /** The token's granted scopes. */
  readonly scopes: readonly string[];
  readonly claims: Readonly<Record<string, unknown>>;
}

export function oauthPrincipal(token: VerifiedToken): OAuthPrincipal {
  const id = token.subject ?? (token.clientId === undefined ? undefined : `client:${token.clientId}`);
  if (id === undefined || id === '') throw new InvalidTokenError('neither sub nor client_id');
  return Object.freeze({
    id,
    subject: token.subject,
    clientId: token.clientId,
    issuer: token.issuer,
    scopes: Object.freeze([...token.scopes]),
    claims: token.claims,
  });
}

/** The scopes a principal was granted: an OAuth principal's `scopes`, or none. */
export function grantedScopes(principal: Principal | undefined): readonly string[] {
  const scopes = principal?.scopes;
  return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
}
