/**
 * Why signing in stopped, as typed errors (FrameworkErrors: local, never sent). Messages name the
 * endpoint or the check that failed; they never carry a token, a code or a client secret.
 */
import { FrameworkError } from '../../errors/framework-error';

/**
 * No usable metadata: protected resource or authorization server metadata missing, malformed,
 * oversized, or naming the wrong resource or issuer.
 */
export class AuthDiscoveryError extends FrameworkError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('OMC_CLIENT_AUTH_DISCOVERY', message, options);
  }
}

/**
 * The authorization response was refused: an `error` from the server, a wrong `state`, a wrong or
 * missing `iss` (RFC 9207), no code.
 */
export class AuthorizationResponseError extends FrameworkError {
  constructor(
    message: string,
    /** The `error` parameter the authorization server sent, if it sent one. */
    readonly oauthError?: string,
  ) {
    super('OMC_CLIENT_AUTH_REDIRECT', message);
  }
}

/** The token or registration endpoint refused the request (or answered something that is not a token). */
export class TokenEndpointError extends FrameworkError {
  constructor(
    message: string,
    readonly httpStatus?: number,
    /** The OAuth `error` code (`invalid_grant`, `invalid_client`, …) when the server sent one. */
    readonly oauthError?: string,
  ) {
    super('OMC_CLIENT_AUTH_TOKEN', message);
  }
}

/** The server still answered 403 `insufficient_scope` after `maxStepUps` re-authorizations. */
export class InsufficientScopeError extends FrameworkError {
  constructor(
    readonly scope: string | undefined,
    readonly attempts: number,
  ) {
    super(
      'OMC_CLIENT_AUTH_SCOPE',
      `The server still refuses with insufficient_scope${scope ? ` (needs "${scope}")` : ''} after ${attempts} re-authorization(s) (maxStepUps).`,
    );
  }
}

/** The server still answered 401 after signing in, or sign-in is impossible with these options. */
export class AuthenticationFailedError extends FrameworkError {
  constructor(message: string) {
    super('OMC_CLIENT_AUTH_DENIED', message);
  }
}
