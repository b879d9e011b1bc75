/**
 * Starts test/helpers/oidc-sign-in-server.mjs: a real oidc-provider on loopback for the client
 * sign-in tests (open dynamic registration, authorization code + PKCE with a programmatic login and
 * consent, client credentials; JWT access tokens for one resource). Its own process, because the
 * provider is ESM only.
 */
import { startOidcProcess, type OidcProcess } from './oidc-process';

export interface SignInProviderOptions {
  resource: string;
  scopes: string[];
  /** Pre-registered clients (client credentials machines), as oidc-provider client metadata. */
  clients?: Record<string, unknown>[];
}

export type SignInProvider = OidcProcess;

export function startSignInProvider(options: SignInProviderOptions): Promise<SignInProvider> {
  return startOidcProcess('oidc-sign-in-server.mjs', options);
}
