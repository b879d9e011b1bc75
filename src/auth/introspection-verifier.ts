/**
 * Opaque access tokens through RFC 7662 introspection: POST the token to the authorization server
 * (as this resource server's client, with a timeout), accept an `active` answer whose `aud` names
 * this resource (when it says) and whose `iss` is the expected issuer (when it says). Active
 * answers are kept a short while (VerifiedTokenCache: never past `exp`, keyed by the token's hash).
 */
import { fetchJson } from './fetch-json';
import type { IntrospectionOptions } from './oauth-options';
import { InvalidTokenError, scopesOf, type TokenVerifier, type VerifiedToken } from './token-verifier';
import { VerifiedTokenCache } from './verified-token-cache';

export class IntrospectionVerifier implements TokenVerifier {
  private readonly cache: VerifiedTokenCache;

  constructor(
    private readonly o: Readonly<IntrospectionOptions>,
    private readonly expect: { resource: string; issuer?: string; clockToleranceSeconds: number },
    private readonly now: () => number = Date.now,
  ) {
    this.cache = new VerifiedTokenCache(o.cacheSeconds, o.maxCacheEntries, now);
  }

  async verify(token: string): Promise<VerifiedToken> {
    const key = this.cache.keyOf(token);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const answer = await fetchJson(this.o.endpoint, {
      method: 'POST',
      timeoutMs: this.o.timeoutMs,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${basic(this.o.clientId, this.o.clientSecret)}`,
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
    });
    const verified = this.check(answer);
    this.cache.remember(key, verified, answer.exp);
    return verified;
  }

  private check(a: Record<string, unknown>): VerifiedToken {
    if (a.active !== true) throw new InvalidTokenError('introspection: not active');
    const nowS = this.now() / 1000;
    const skew = this.expect.clockToleranceSeconds;
    if (typeof a.exp === 'number' && a.exp + skew <= nowS) throw new InvalidTokenError('introspection: expired');
    if (typeof a.nbf === 'number' && a.nbf - skew > nowS) throw new InvalidTokenError('introspection: not yet valid');
    if (a.aud !== undefined) {
      const aud = Array.isArray(a.aud) ? a.aud : [a.aud];
      if (!aud.includes(this.expect.resource)) throw new InvalidTokenError('introspection: audience');
    }
    if (a.iss !== undefined && this.expect.issuer !== undefined && a.iss !== this.expect.issuer) {
      throw new InvalidTokenError('introspection: issuer');
    }
    if (a.token_type !== undefined && typeof a.token_type === 'string' && !/^(bearer|access_token)$/i.test(a.token_type)) {
      throw new InvalidTokenError('introspection: not an access token');
    }
    return {
      subject: typeof a.sub === 'string' ? a.sub : undefined,
      clientId: typeof a.client_id === 'string' ? a.client_id : undefined,
      issuer: typeof a.iss === 'string' ? a.iss : undefined,
      scopes: scopesOf(a.scope),
      claims: a,
    };
  }
}

/** client_secret_basic: both parts form-urlencoded first (RFC 6749 §2.3.1). */
function basic(id: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64');
}
