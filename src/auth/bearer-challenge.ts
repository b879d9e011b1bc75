/** `WWW-Authenticate: Bearer …` (RFC 6750 §3, RFC 9728 §5.1): quoted parameters, escaped. */
import type { BearerChallenge } from '../server/core/resource-server';

/** A quoted-string: `\` and `"` escaped, anything outside printable ASCII dropped. */
function quoted(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

export function bearerChallenge(resourceMetadata: string, c: BearerChallenge): string {
  const params = [`resource_metadata=${quoted(resourceMetadata)}`];
  if (c.scopes && c.scopes.length > 0) params.push(`scope=${quoted(c.scopes.join(' '))}`);
  if (c.error) params.push(`error=${quoted(c.error)}`);
  if (c.description) params.push(`error_description=${quoted(c.description)}`);
  return `Bearer ${params.join(', ')}`;
}
