/**
 * The principal of a verified access token. `id` (which binds legacy sessions and every
 * requestState) is namespaced by issuer and kind: `sub:<subject>@<issuer>`, or for a token without
 * `sub`, its client's `client:<client_id>@<issuer>` (subject and client percent-encoded). So a user whose
 * `sub` is `client:batch` is not the client `batch`, and two issuers' `ada` are two principals.
 */
import { namespacedPrincipalId, type Principal } from '../context/principal';
import { InvalidTokenError, type VerifiedToken } from './token-verifier';

export interface OAuthPrincipal extends Principal {
  /** Which claim `id` is made of: the token's subject, or (no `sub`) its client. */
  readonly kind: 'sub' | 'client';
  readonly subject?: string;
  readonly clientId?: string;
  readonly issuer?: string;
  /** The token's granted scopes. */
  readonly scopes: readonly string[];
  readonly claims: Readonly<Record<string, unknown>>;
}

export function oauthPrincipal(token: VerifiedToken): OAuthPrincipal {
  const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';
  if (token.subject !== undefined && !nonEmpty(token.subject)) {
    throw new InvalidTokenError('sub must be a non-empty string');
  }
  if (token.clientId !== undefined && !nonEmpty(token.clientId)) {
    throw new InvalidTokenError('client_id must be a non-empty string');
  }
  const kind = token.subject !== undefined ? 'sub' : 'client';
  const subject = token.subject ?? token.clientId;
  if (subject === undefined) throw new InvalidTokenError('neither sub nor client_id');
  return Object.freeze({
    id: namespacedPrincipalId({ issuer: token.issuer ?? '', kind, subject }),
    kind,
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
