/**
 * Enterprise-managed authorization (the MCP extension built on the Identity Assertion JWT
 * Authorization Grant): the user's ID token from the enterprise identity provider is exchanged
 * there (RFC 8693 token exchange) for an ID-JAG naming the MCP authorization server and resource,
 * which the client then presents with the `jwt_bearer` grant. `idJagAssertion` is that exchange, as
 * the `assertion` of `OAuthOptions`.
 */
import { TokenEndpointError } from './auth-errors';
import { fetchJson } from './bounded-fetch';

/** What a `jwt_bearer` assertion is for: the authorization server's issuer and the resource. */
export interface AssertionTarget {
  issuer: string;
  resource: string;
}

export interface IdJagOptions {
  /** The identity provider's token endpoint. */
  tokenEndpoint: string;
  /** The user's ID token from the identity provider (read for each exchange). */
  idToken: () => string | Promise<string>;
  /** This client's id at the identity provider, sent as `client_id`. */
  clientId?: string;
  /** Space-separated scopes to ask the identity provider to put in the grant. */
  scope?: string;
  fetch?: typeof fetch;
  /** Default 10 000. */
  timeoutMs?: number;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

export function idJagAssertion(options: IdJagOptions): (target: AssertionTarget) => Promise<string> {
  return async (target) => {
    const body = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      subject_token: await options.idToken(),
      subject_token_type: ID_TOKEN,
      audience: target.issuer,
      resource: target.resource,
    });
    if (options.clientId) body.set('client_id', options.clientId);
    if (options.scope) body.set('scope', options.scope);
    const reply = await fetchJson(
      options.tokenEndpoint,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: body.toString(),
      },
      { fetch: options.fetch ?? fetch, timeoutMs: options.timeoutMs ?? 10_000 },
    );
    const b = reply.body;
    const jag = b?.access_token;
    if (reply.status !== 200 || typeof jag !== 'string' || !jag || b?.issued_token_type !== ID_JAG) {
      const error = typeof b?.error === 'string' ? b.error.slice(0, 100) : undefined;
      throw new TokenEndpointError(
        `The identity provider refused the ID-JAG token exchange (HTTP ${reply.status}${error ? `, ${error}` : ''}).`,
        reply.status,
        error,
      );
    }
    return jag;
  };
}
