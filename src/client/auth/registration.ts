/**
 * Which client this is at an authorization server, in the order the MCP spec gives:
 * pre-registered credentials (`clientId`), a client ID metadata document (`clientMetadataUrl`, when
 * the server supports them), dynamic client registration (RFC 7591) when the server offers it.
 */
import { AuthenticationFailedError, TokenEndpointError } from './auth-errors';
import { fetchJson, type BoundedFetchOptions } from './bounded-fetch';
import type { ServerMetadata } from './metadata';
import type { ClientRegistration, TokenEndpointAuthMethod } from './token-store';

export interface ClientIdentity {
  clientId?: string;
  clientSecret?: string;
  privateKey?: string;
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  clientMetadataUrl?: string;
  clientName: string;
  applicationType: 'native' | 'web';
  grant: 'authorization_code' | 'client_credentials' | 'jwt_bearer';
}

const METHODS: readonly TokenEndpointAuthMethod[] = [
  'none',
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
];

/** The method for a client with these credentials, among those the server supports (RFC 8414 default: basic). */
export function chooseAuthMethod(
  server: ServerMetadata,
  has: { secret: boolean; key: boolean },
  preferred?: TokenEndpointAuthMethod,
): TokenEndpointAuthMethod {
  if (preferred) return preferred;
  const supported = server.tokenEndpointAuthMethods ?? ['client_secret_basic'];
  if (has.key && supported.includes('private_key_jwt')) return 'private_key_jwt';
  if (!has.secret) return 'none';
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return supported.includes('none') ? 'none' : 'client_secret_basic';
}

export async function resolveClient(
  server: ServerMetadata,
  identity: ClientIdentity,
  redirectUri: string | undefined,
  options: BoundedFetchOptions,
): Promise<ClientRegistration> {
  if (identity.clientId) {
    const has = { secret: identity.clientSecret !== undefined, key: identity.privateKey !== undefined };
    const reg: ClientRegistration = {
      clientId: identity.clientId,
      authMethod: chooseAuthMethod(server, has, identity.tokenEndpointAuthMethod),
    };
    if (identity.clientSecret !== undefined) reg.clientSecret = identity.clientSecret;
    return reg;
  }
  if (identity.clientMetadataUrl && server.clientIdMetadataDocumentSupported)
    return { clientId: identity.clientMetadataUrl, authMethod: 'none' };
  if (server.registrationEndpoint) return register(server, identity, redirectUri, options);
  throw new AuthenticationFailedError(
    `${server.issuer} offers neither dynamic client registration nor client ID metadata documents this client can use: pass clientId (pre-registered) or clientMetadataUrl.`,
  );
}

async function register(
  server: ServerMetadata,
  identity: ClientIdentity,
  redirectUri: string | undefined,
  options: BoundedFetchOptions,
): Promise<ClientRegistration> {
  const supported = server.tokenEndpointAuthMethods ?? ['client_secret_basic'];
  const requested: TokenEndpointAuthMethod = supported.includes('none')
    ? 'none'
    : (METHODS.find((m) => m !== 'private_key_jwt' && supported.includes(m)) ?? 'client_secret_basic');
  const grants = identity.grant === 'authorization_code' ? ['authorization_code', 'refresh_token'] : [identity.grant];
  const metadata: Record<string, unknown> = {
    client_name: identity.clientName,
    grant_types: grants,
    response_types: identity.grant === 'authorization_code' ? ['code'] : [],
    token_endpoint_auth_method: requested,
    application_type: identity.applicationType,
  };
  if (redirectUri) metadata.redirect_uris = [redirectUri];
  // No `scope`: a registration limited to today's scopes would refuse tomorrow's step-up.
  const reply = await fetchJson(
    server.registrationEndpoint!,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(metadata),
    },
    options,
  );
  const b = reply.body;
  if ((reply.status !== 201 && reply.status !== 200) || !b || typeof b.client_id !== 'string' || !b.client_id) {
    const error = typeof b?.error === 'string' ? b.error.slice(0, 100) : undefined;
    throw new TokenEndpointError(
      `Dynamic client registration at ${server.issuer} failed (HTTP ${reply.status}${error ? `, ${error}` : ''}).`,
      reply.status,
      error,
    );
  }
  const secret = typeof b.client_secret === 'string' && b.client_secret ? b.client_secret : undefined;
  const answered = METHODS.find((m) => m === b.token_endpoint_auth_method);
  const authMethod = answered ?? chooseAuthMethod(server, { secret: secret !== undefined, key: false });
  return secret ? { clientId: b.client_id, clientSecret: secret, authMethod } : { clientId: b.client_id, authMethod };
}
