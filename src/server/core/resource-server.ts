/**
 * What transports see of an OAuth protected resource (issue 17): the metadata document (RFC 9728)
 * and where it is served, the verification of a request's Authorization header, and the
 * `WWW-Authenticate` challenge of a refusal. `OAuthResourceModule` (src/auth) implements it; an app
 * without it pays nothing on the request path.
 */
import type { InjectionToken } from 'tsyringe';
import type { Principal } from '../../context/principal';

/** Why a request's credentials were refused; `error` is the RFC 6750 error code, absent when none were sent. */
export interface TokenRefusal {
  readonly ok: false;
  /** 401 (no or bad token), 400 (malformed Authorization header), 503 (the verifier cannot answer now). */
  readonly status: 400 | 401 | 503;
  readonly error?: 'invalid_request' | 'invalid_token';
  /** Safe to show the client: never the token, never the exact reason a check failed. */
  readonly description: string;
  /** Why, for the server's logger only (never the token). */
  readonly reason?: string;
}

export type TokenOutcome = { readonly ok: true; readonly principal: Principal } | TokenRefusal;

/** The parameters of a `WWW-Authenticate: Bearer` challenge. */
export interface BearerChallenge {
  readonly error?: string;
  readonly description?: string;
  /** The scopes the request needs (401: what to ask for first; 403: what was missing). */
  readonly scopes?: readonly string[];
}

export interface ResourceServer {
  /** The canonical URI of this MCP server (RFC 8707): the audience its tokens must carry. */
  readonly resource: string;
  /** Paths from the host root that serve the metadata document, the path-suffixed one first. */
  readonly metadataPaths: readonly string[];
  /** The protected resource metadata document (RFC 9728 §2), as JSON text. */
  readonly metadataBody: string;
  /** Verifies an Authorization header value. Never throws and never logs the token. */
  authenticate(authorization: string | undefined): Promise<TokenOutcome>;
  /** The value of `WWW-Authenticate` for a refusal. */
  challenge(challenge: BearerChallenge): string;
}

export const RESOURCE_SERVER: InjectionToken<ResourceServer> = Symbol.for('onemodelcontext:resource-server');
