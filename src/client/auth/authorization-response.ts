/**
 * The authorization response (the redirect back): checked before its code is used. `state` must be
 * the one sent; an `error` stops the flow; `iss` (RFC 9207) must equal the issuer exactly, by
 * simple string comparison, whenever it is present, and must be present when the server's
 * metadata says it always sends it.
 */
import { AuthorizationResponseError } from './auth-errors';

export interface ExpectedResponse {
  state: string;
  issuer: string;
  issRequired: boolean;
}

/** The authorization code from the redirect URL, once every check passes. */
export function readAuthorizationResponse(callback: URL, expected: ExpectedResponse): string {
  const q = callback.searchParams;
  if (q.get('state') !== expected.state)
    throw new AuthorizationResponseError('The authorization response carries the wrong state; ignored.');
  const iss = q.get('iss');
  if (iss !== null && iss !== expected.issuer)
    throw new AuthorizationResponseError(
      `The authorization response names another issuer than ${expected.issuer} (RFC 9207); refused.`,
    );
  if (iss === null && expected.issRequired)
    throw new AuthorizationResponseError(
      `${expected.issuer} advertises the iss parameter but the authorization response has none (RFC 9207); refused.`,
    );
  const error = q.get('error');
  if (error !== null) {
    const description = q.get('error_description');
    throw new AuthorizationResponseError(
      `The authorization server answered ${error.slice(0, 100)}${description ? `: ${description.slice(0, 300)}` : ''}.`,
      error.slice(0, 100),
    );
  }
  const code = q.get('code');
  if (!code) throw new AuthorizationResponseError('The authorization response has no code.');
  return code;
}
