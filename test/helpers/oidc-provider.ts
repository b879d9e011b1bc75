/**
 * Starts a real `oidc-provider` authorization server on loopback (test/helpers/oidc-server.mjs, in
 * its own Node process because the provider is ESM only). Client-credentials clients get JWT (or,
 * with `opaque`, opaque) access tokens for our resource through resource indicators (RFC 8707).
 */
import { startOidcProcess } from './oidc-process';

export interface OidcClient {
  client_id: string;
  client_secret: string;
  scope?: string;
}

export interface OidcOptions {
  /** The resources tokens may be issued for; the first is the default. */
  resources: string[];
  scopes: string[];
  clients: OidcClient[];
  opaque?: boolean;
}

export interface OidcProviderHandle {
  readonly issuer: string;
  /** A client-credentials access token for `resource` (default: the first) with `scope`. */
  token(client: OidcClient, options?: { resource?: string; scope?: string }): Promise<string>;
  /** A JWT carrying `claims`, signed with the provider's own key (expired, wrong audience, …). */
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  stop(): Promise<void>;
}

export async function startOidcProvider(options: OidcOptions): Promise<OidcProviderHandle> {
  const config = {
    resource: options.resources[0],
    resources: options.resources,
    scopes: options.scopes,
    opaque: options.opaque ?? false,
    clients: options.clients.map((c) => ({
      ...c,
      scope: c.scope ?? options.scopes.join(' '),
      grant_types: ['client_credentials'],
      id_token_signed_response_alg: 'ES256',
      redirect_uris: [],
      response_types: [],
    })),
  };
  const { issuer, stop } = await startOidcProcess('oidc-server.mjs', config);
  return {
    issuer,
    token: async (client, o = {}) => {
      const resource = o.resource ?? options.resources[0]!;
      const body = new URLSearchParams({ grant_type: 'client_credentials', resource });
      if (o.scope !== undefined) body.set('scope', o.scope);
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
        },
        body,
      });
      const json = (await res.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!json.access_token) throw new Error(`token request failed: ${json.error} ${json.error_description ?? ''}`);
      return json.access_token;
    },
    sign: async (claims, header) => {
      const res = await fetch(`${issuer}/test/sign`, { method: 'POST', body: JSON.stringify({ claims, header }) });
      return res.text();
    },
    stop,
  };
}
