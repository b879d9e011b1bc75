/**
 * The two metadata documents sign-in reads, checked field by field: RFC 9728 protected resource
 * metadata and RFC 8414 authorization server metadata (or OpenID configuration). Anything missing
 * or of the wrong type is refused here, so the rest of the flow works with typed values.
 */
import { AuthDiscoveryError } from './auth-errors';

export interface ResourceMetadata {
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
}

export interface ServerMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint?: string;
  scopesSupported?: string[];
  codeChallengeMethods?: string[];
  tokenEndpointAuthMethods?: string[];
  grantTypes?: string[];
  clientIdMetadataDocumentSupported: boolean;
  /** RFC 9449: the proof algorithms the token endpoint accepts (DPoP support). */
  dpopAlgorithms?: string[];
  /** RFC 9207: the server says it sends `iss` in every authorization response. */
  issParameterSupported: boolean;
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : undefined;
}

/** An http(s) URL without a fragment, or undefined. */
export function httpUrl(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > 2048) return undefined;
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.hash ? v : undefined;
  } catch {
    return undefined;
  }
}

export function parseResourceMetadata(body: Record<string, unknown>, where: string): ResourceMetadata {
  const resource = httpUrl(body.resource);
  const servers = strings(body.authorization_servers)?.filter((s) => httpUrl(s) !== undefined);
  if (!resource) throw new AuthDiscoveryError(`${where}: protected resource metadata has no valid "resource".`);
  if (!servers?.length)
    throw new AuthDiscoveryError(`${where}: protected resource metadata lists no valid "authorization_servers".`);
  const out: ResourceMetadata = { resource, authorizationServers: servers };
  const scopes = strings(body.scopes_supported);
  if (scopes) out.scopesSupported = scopes;
  return out;
}

/** Validates the document against the issuer it was looked up for (RFC 8414 §3.3: identical). */
export function parseServerMetadata(
  body: Record<string, unknown>,
  expectedIssuer: string,
  where: string,
): ServerMetadata {
  if (body.issuer !== expectedIssuer)
    throw new AuthDiscoveryError(
      `${where}: the metadata's issuer does not match the authorization server it was looked up for (${expectedIssuer}).`,
    );
  const authorizationEndpoint = httpUrl(body.authorization_endpoint);
  const tokenEndpoint = httpUrl(body.token_endpoint);
  if (!tokenEndpoint) throw new AuthDiscoveryError(`${where}: authorization server metadata has no valid token_endpoint.`);
  const meta: ServerMetadata = {
    issuer: expectedIssuer,
    // Client-credentials-only servers may omit it; the code flow checks before using it.
    authorizationEndpoint: authorizationEndpoint ?? '',
    tokenEndpoint,
    clientIdMetadataDocumentSupported: body.client_id_metadata_document_supported === true,
    issParameterSupported: body.authorization_response_iss_parameter_supported === true,
  };
  const registration = httpUrl(body.registration_endpoint);
  if (registration) meta.registrationEndpoint = registration;
  const optional: [keyof ServerMetadata, string][] = [
    ['scopesSupported', 'scopes_supported'],
    ['codeChallengeMethods', 'code_challenge_methods_supported'],
    ['tokenEndpointAuthMethods', 'token_endpoint_auth_methods_supported'],
    ['grantTypes', 'grant_types_supported'],
    ['dpopAlgorithms', 'dpop_signing_alg_values_supported'],
  ];
  for (const [key, field] of optional) {
    const list = strings(body[field]);
    if (list) (meta as unknown as Record<string, unknown>)[key] = list;
  }
  return meta;
}

/** The 2025-03-26 fallback: no metadata at all, the endpoints at fixed paths of the server's origin. */
export function defaultServerMetadata(origin: string): ServerMetadata {
  return {
    issuer: origin,
    authorizationEndpoint: `${origin}/authorize`,
    tokenEndpoint: `${origin}/token`,
    registrationEndpoint: `${origin}/register`,
    clientIdMetadataDocumentSupported: false,
    issParameterSupported: false,
  };
}
