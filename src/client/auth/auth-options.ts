/**
 * `OAuthOptions` (the `auth` of an HTTP target): how this client signs in to a protected server.
 * Validated once, then frozen, like every other options class; secrets are never echoed.
 */
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min } from 'class-validator';
import { HasMethods, IsFunction } from '../../config/option-rules';
import { isValidatedOptions, validateOptions, type OptionProblem } from '../../config/validate-options';
import type { AssertionTarget } from './id-jag';
import type { RedirectHandler } from './redirect-handlers';
import type { TokenEndpointAuthMethod, TokenStore } from './token-store';

export const OAUTH_GRANTS = ['authorization_code', 'client_credentials', 'jwt_bearer'] as const;
export const CLIENT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;
export const CLIENT_ASSERTION_ALGORITHMS = ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'] as const;

export class OAuthOptions {
  /**
   * `authorization_code` (a user signs in, PKCE), `client_credentials` (a machine), or `jwt_bearer`
   * (RFC 7523: a workload presents a JWT its platform issued, workload identity federation).
   */
  @IsIn(OAUTH_GRANTS as unknown as string[]) grant: (typeof OAUTH_GRANTS)[number] = 'authorization_code';
  /**
   * jwt_bearer: returns the JWT to present for this authorization server and resource: a workload's
   * platform token (read it fresh: they expire), or an ID-JAG from `idJagAssertion`.
   */
  @IsOptional() @IsFunction() assertion?: (target: AssertionTarget) => string | Promise<string>;
  /** Opens the browser and receives the redirect (authorization_code): `loopbackRedirect`, `followRedirect`. */
  @IsOptional() @HasMethods('redirectUri', 'authorize') redirect?: RedirectHandler;
  /** A pre-registered client id (with `clientSecret` or `privateKey` for a confidential client). */
  @IsOptional() @IsString() @IsNotEmpty() clientId?: string;
  @IsOptional() @IsString() clientSecret?: string;
  /** PKCS#8 PEM key for `private_key_jwt` client authentication (RFC 7523). */
  @IsOptional() @IsString() privateKey?: string;
  @IsIn(CLIENT_ASSERTION_ALGORITHMS as unknown as string[]) signingAlgorithm = 'ES256';
  /** Overrides the method chosen from the server's `token_endpoint_auth_methods_supported`. */
  @IsOptional() @IsIn(CLIENT_AUTH_METHODS as unknown as string[]) tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** An https URL serving this client's metadata document, used as client id where supported. */
  @IsOptional() @IsString() clientMetadataUrl?: string;
  /** `client_name` for dynamic registration. */
  @IsString() clientName = 'onemodelcontext-client';
  @IsIn(['native', 'web']) applicationType: 'native' | 'web' = 'native';
  /** Scopes to ask for when the server's challenge names none (space-separated). */
  @IsOptional() @IsString() scope?: string;
  /** Ask for `offline_access` (a refresh token) when the authorization server lists it. */
  @IsBoolean() offlineAccess = true;
  /** Re-authorizations for more scope (403 `insufficient_scope`) per request before giving up. */
  @IsInt() @Min(0) @Max(10) maxStepUps = 2;
  /**
   * Ask for DPoP-bound tokens (RFC 9449) when the authorization server supports ES256 proofs. The
   * key lives in memory with the client: a token kept in a persistent store is unusable after it.
   */
  @IsBoolean() dpop = false;
  /** Where registrations and tokens are kept; default in memory. */
  @IsOptional() @HasMethods('load', 'save', 'clear') tokenStore?: TokenStore;
  /** Per request to a metadata, registration or token endpoint. */
  @IsInt() @Min(1) timeoutMs = 10_000;
  /** Replace fetch for the authorization server's endpoints (default: the target's fetch). */
  @IsOptional() @IsFunction() fetch?: typeof fetch;
}

export type OAuthInit = Partial<OAuthOptions>;

function checks(o: Readonly<OAuthOptions>): OptionProblem[] {
  const problems: OptionProblem[] = [];
  if (o.grant === 'authorization_code' && !o.redirect)
    problems.push({ field: 'redirect', message: 'authorization_code needs a redirect handler (loopbackRedirect, followRedirect)' });
  if (o.grant === 'client_credentials' && (!o.clientId || (o.clientSecret === undefined && !o.privateKey)))
    problems.push({ field: 'clientId', message: 'client_credentials needs clientId with clientSecret or privateKey' });
  if (o.grant === 'jwt_bearer' && (!o.clientId || !o.assertion))
    problems.push({ field: 'assertion', message: 'jwt_bearer needs clientId and an assertion function' });
  if (o.clientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/./.test(o.clientMetadataUrl))
    problems.push({ field: 'clientMetadataUrl', message: 'must be an https URL with a path' });
  return problems;
}

export function resolveOAuthOptions(input: OAuthInit | Readonly<OAuthOptions>): Readonly<OAuthOptions> {
  if (isValidatedOptions(input, OAuthOptions)) return input;
  return validateOptions(OAuthOptions, input, { label: 'OAuthOptions', checks });
}
