/**
 * The issuer's `jwks_uri`, from its authorization server metadata: RFC 8414 (path inserted after
 * `/.well-known/oauth-authorization-server`), then OpenID Connect discovery. Each fetch has a timeout.
 */
import { fetchJson } from './fetch-json';

export async function discoverJwksUri(issuer: string, timeoutMs: number): Promise<string> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  const failures: string[] = [];
  for (const candidate of candidates) {
    try {
      const doc = await fetchJson(candidate, { timeoutMs });
      if (doc.issuer !== issuer) {
        failures.push(`${candidate}: issuer "${String(doc.issuer)}" is not "${issuer}"`);
        continue;
      }
      if (typeof doc.jwks_uri === 'string') return doc.jwks_uri;
      failures.push(`${candidate}: no jwks_uri`);
    } catch (e) {
      failures.push(`${candidate}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  throw new Error(`no jwks_uri found for issuer ${issuer} (${failures.join('; ')})`);
}
