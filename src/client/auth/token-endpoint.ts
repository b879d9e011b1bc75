/**
 * Token requests (OAuth 2.1 §3.2): the grant's parameters, client authentication by the method the
 * registration says (`client_secret_basic`, `client_secret_post`, `none`, or a `private_key_jwt`
 * assertion, RFC 7523), the `resource` indicator (RFC 8707), and a checked token response.
 */
import { randomUUID } from 'node:crypto';
import { TokenEndpointError } from './auth-errors';
import { fetchJson, type BoundedFetchOptions } from './bounded-fetch';
import type { DpopKey } from './dpop';
import type { ClientRegistration, StoredTokens } from './token-store';

export interface ClientKey {
  privateKeyPem: string;
  algorithm: string;
}

/** RFC 6749 §2.3.1: the id and secret are form-encoded before Basic encoding. */
function basic(id: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}

/** `jose` is loaded on first use: a client that never signs an assertion never loads it. */
async function assertion(client: ClientRegistration, audience: string, key: ClientKey): Promise<string> {
  const { importPKCS8, SignJWT } = await import('jose');
  const privateKey = await importPKCS8(key.privateKeyPem, key.algorithm);
  return new SignJWT({})
    .setProtectedHeader({ alg: key.algorithm })
    .setIssuer(client.clientId)
    .setSubject(client.clientId)
    .setAudience(audience)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
}

export interface TokenRequest {
  tokenEndpoint: string;
  issuer: string;
  client: ClientRegistration;
  params: Record<string, string | undefined>;
  key?: ClientKey;
  /** Ask for a DPoP-bound token (RFC 9449 §5): a proof on the request, the server's nonce honoured once. */
  dpop?: DpopKey;
}

export async function requestToken(request: TokenRequest, options: BoundedFetchOptions): Promise<StoredTokens> {
  const { client } = request;
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(request.params)) if (v !== undefined && v !== '') body.set(k, v);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  switch (client.authMethod) {
    case 'client_secret_basic':
      headers.authorization = basic(client.clientId, client.clientSecret ?? '');
      break;
    case 'client_secret_post':
      body.set('client_id', client.clientId);
      body.set('client_secret', client.clientSecret ?? '');
      break;
    case 'private_key_jwt':
      if (!request.key) throw new TokenEndpointError('private_key_jwt needs a private key (privateKey).');
      body.set('client_id', client.clientId);
      body.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      body.set('client_assertion', await assertion(client, request.issuer, request.key));
      break;
    case 'none':
      body.set('client_id', client.clientId);
      break;
  }
  const send = async (nonce?: string) => {
    if (request.dpop) headers.dpop = await request.dpop.proof({ method: 'POST', url: request.tokenEndpoint, nonce });
    return fetchJson(request.tokenEndpoint, { method: 'POST', headers, body: body.toString() }, options);
  };
  let reply = await send();
  const nonce = reply.headers.get('dpop-nonce');
  const wantsNonce = reply.status === 400 && reply.body?.error === 'use_dpop_nonce';
  if (request.dpop && wantsNonce && nonce) reply = await send(nonce);
  const b = reply.body;
  if (reply.status !== 200 || !b) {
    const error = typeof b?.error === 'string' ? b.error.slice(0, 100) : undefined;
    throw new TokenEndpointError(
      `The token endpoint refused the ${request.params.grant_type} request (HTTP ${reply.status}${error ? `, ${error}` : ''}).`,
      reply.status,
      error,
    );
  }
  return parseTokenResponse(b, request.params.scope, request.dpop !== undefined);
}

export function parseTokenResponse(
  b: Record<string, unknown>,
  requestedScope?: string,
  dpop = false,
): StoredTokens {
  if (typeof b.access_token !== 'string' || !b.access_token || b.access_token.length > 16_384)
    throw new TokenEndpointError('The token response has no valid access_token.');
  const type = typeof b.token_type === 'string' ? b.token_type.toLowerCase() : undefined;
  if (type !== 'bearer' && !(dpop && type === 'dpop'))
    throw new TokenEndpointError(`The token response is not a ${dpop ? 'Bearer or DPoP' : 'Bearer'} token (token_type).`);
  const tokens: StoredTokens = { accessToken: b.access_token, tokenType: type === 'dpop' ? 'DPoP' : 'Bearer' };
  if (typeof b.refresh_token === 'string' && b.refresh_token) tokens.refreshToken = b.refresh_token;
  if (typeof b.expires_in === 'number' && b.expires_in > 0) tokens.expiresAt = Date.now() + b.expires_in * 1000;
  const scope = typeof b.scope === 'string' ? b.scope : requestedScope;
  if (scope) tokens.scope = scope;
  return tokens;
}
