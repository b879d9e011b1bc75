/** The HTTP status of a server reply: from its error code (protocol/http-status.ts), whoever raised it. */
import { neededScopes } from '../../errors/insufficient-scope';
import { httpStatusOfError } from '../../protocol/http-status';
import type { Era } from '../../protocol/versions';
import type { ResourceServer } from '../../server/core/resource-server';
import type { Reply } from '../../server/server-endpoint';

export function replyStatus(reply: Reply, era: Era): number {
  if (reply.missingEnvelope) return 400;
  const error = 'error' in reply.message ? reply.message.error : undefined;
  if (!error) return 200;
  // An insufficient-scope refusal is 403 on every revision (RFC 6750 §3.1, the MCP authorization spec).
  if (neededScopes(error)) return 403;
  return httpStatusOfError(error.code, era);
}

/**
 * The headers a reply adds: `WWW-Authenticate` naming the scopes of an insufficient-scope refusal
 * (with `resource_metadata` when the server is an OAuth resource), so the client can step up.
 */
export function replyHeaders(reply: Reply, rs: ResourceServer | undefined): Record<string, string> | undefined {
  const error = 'error' in reply.message ? reply.message.error : undefined;
  const scopes = error && neededScopes(error);
  if (!scopes) return undefined;
  const challenge = { error: 'insufficient_scope', scopes, description: 'The access token lacks scopes this needs' };
  if (rs) return { 'WWW-Authenticate': rs.challenge(challenge) };
  return { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"` };
}
