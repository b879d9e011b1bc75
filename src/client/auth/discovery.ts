/**
 * Discovery: from a 401 to the authorization server's metadata.
 * 1. Protected resource metadata (RFC 9728): the `resource_metadata` URL of the challenge, then
 *    `/.well-known/oauth-protected-resource` suffixed with the endpoint's path, then at the root.
 *    Its `resource` must be this server (same origin, a path prefix), or sign-in stops (2026-07-28).
 * 2. Authorization server metadata for the first listed issuer: for an issuer with a path
 *    `/.well-known/oauth-authorization-server/<path>`, `/.well-known/openid-configuration/<path>`,
 *    `<path>/.well-known/openid-configuration`; without one the two root documents (2025-06-18 on).
 * 3. No protected resource metadata at all (a 2025-03-26 server): the server's origin is the
 *    authorization server: its RFC 8414 document, else `/authorize`, `/token`, `/register` there.
 */
import { AuthDiscoveryError } from './auth-errors';
import { fetchJson, type BoundedFetchOptions } from './bounded-fetch';
import {
  defaultServerMetadata,
  httpUrl,
  parseResourceMetadata,
  parseServerMetadata,
  type ResourceMetadata,
  type ServerMetadata,
} from './metadata';

export interface Discovered {
  /** Undefined for a 2025-03-26 server (no protected resource metadata). */
  resource?: ResourceMetadata;
  server: ServerMetadata;
}

const JSON_GET: RequestInit = { method: 'GET', headers: { accept: 'application/json' } };

export async function discover(
  serverUrl: string,
  resourceMetadataUrl: string | undefined,
  options: BoundedFetchOptions,
): Promise<Discovered> {
  const resource = await findResourceMetadata(serverUrl, resourceMetadataUrl, options);
  if (!resource) {
    const origin = new URL(serverUrl).origin;
    return { server: (await findServerMetadata(origin, options, true)) ?? defaultServerMetadata(origin) };
  }
  const issuer = resource.authorizationServers[0]!;
  const server = await findServerMetadata(issuer, options, false);
  if (!server) throw new AuthDiscoveryError(`No authorization server metadata found for ${issuer}.`);
  return { resource, server };
}

export function resourceMetadataCandidates(serverUrl: string, fromChallenge?: string): string[] {
  const url = new URL(serverUrl);
  const out: string[] = [];
  const header = httpUrl(fromChallenge);
  if (header) out.push(header);
  const path = url.pathname.replace(/\/$/, '');
  if (path) out.push(`${url.origin}/.well-known/oauth-protected-resource${path}`);
  out.push(`${url.origin}/.well-known/oauth-protected-resource`);
  return [...new Set(out)];
}

export function serverMetadataCandidates(issuer: string, legacy = false): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  if (legacy) return [`${url.origin}/.well-known/oauth-authorization-server`];
  if (!path)
    return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** Same origin, and the server's path at or below the resource's path. */
export function resourceMatches(resource: string, serverUrl: string): boolean {
  const r = new URL(resource);
  const s = new URL(serverUrl);
  if (r.origin !== s.origin) return false;
  const base = r.pathname.replace(/\/$/, '');
  const path = s.pathname.replace(/\/$/, '');
  return path === base || path.startsWith(`${base}/`);
}

async function findResourceMetadata(
  serverUrl: string,
  fromChallenge: string | undefined,
  options: BoundedFetchOptions,
): Promise<ResourceMetadata | undefined> {
  for (const url of resourceMetadataCandidates(serverUrl, fromChallenge)) {
    const reply = await fetchJson(url, JSON_GET, options).catch((e: unknown) => {
      if (e instanceof AuthDiscoveryError) throw e;
      return undefined; // unreachable: try the next place
    });
    if (!reply || reply.status !== 200 || !reply.body) continue;
    const metadata = parseResourceMetadata(reply.body, url);
    if (!resourceMatches(metadata.resource, serverUrl))
      throw new AuthDiscoveryError(
        `Protected resource metadata at ${url} is for another resource (${metadata.resource}), not ${serverUrl}; not signing in.`,
      );
    return metadata;
  }
  return undefined;
}

async function findServerMetadata(
  issuer: string,
  options: BoundedFetchOptions,
  legacy: boolean,
): Promise<ServerMetadata | undefined> {
  for (const url of serverMetadataCandidates(issuer, legacy)) {
    const reply = await fetchJson(url, JSON_GET, options).catch((e: unknown) => {
      if (e instanceof AuthDiscoveryError) throw e;
      return undefined;
    });
    if (!reply || reply.status !== 200 || !reply.body) continue;
    return parseServerMetadata(reply.body, issuer, url);
  }
  return undefined;
}
