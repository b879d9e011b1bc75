/**
 * Protected resource metadata (RFC 9728): where it is served for a resource URI, and the document.
 * A resource with a path (`https://h/mcp`) has its metadata at `/.well-known/oauth-protected-resource/mcp`
 * (RFC 9728 §3.1, the URL its 401s name); the root form `/.well-known/oauth-protected-resource` is
 * served too, for clients of the revisions that try it.
 */
import type { OAuthResourceOptions } from './oauth-options';

export const WELL_KNOWN_RESOURCE = '/.well-known/oauth-protected-resource';

/** The metadata paths of `resource`, the one its challenges name first. */
export function metadataPaths(resource: string): string[] {
  const path = new URL(resource).pathname.replace(/\/$/, '');
  return path === '' ? [WELL_KNOWN_RESOURCE] : [`${WELL_KNOWN_RESOURCE}${path}`, WELL_KNOWN_RESOURCE];
}

/** The absolute URL of the metadata document, for `resource_metadata` in challenges. */
export function metadataUrl(resource: string): string {
  return `${new URL(resource).origin}${metadataPaths(resource)[0]}`;
}

export function metadataDocument(o: Readonly<OAuthResourceOptions>): string {
  return JSON.stringify({
    resource: o.resource,
    authorization_servers: o.authorizationServers,
    ...(o.scopesSupported ? { scopes_supported: o.scopesSupported } : {}),
    bearer_methods_supported: ['header'],
    ...(o.resourceName ? { resource_name: o.resourceName } : {}),
    ...(o.resourceDocumentation ? { resource_documentation: o.resourceDocumentation } : {}),
  });
}
