/**
 * JWT access tokens (RFC 9068) checked with `jose` against the issuer's JWK Set: signature with an
 * allow-listed asymmetric algorithm, `iss`, `aud` = this resource, `exp`/`nbf` with a small skew.
 * The JWK Set is fetched on first use (with a timeout), cached, and fetched again for an unknown
 * `kid` at most once per cooldown. `jose` is loaded on first use, so an app without OAuth never loads it.
 * A verified token is reused for `jwtCacheSeconds` (never past its `exp`): clients send the same
 * token on every request, and a signature check costs more than the rest of a call.
 */
import type * as Jose from 'jose';
import type { OAuthResourceOptions } from './oauth-options';
import { InvalidTokenError, scopesOf, type TokenVerifier, type VerifiedToken } from './token-verifier';
import { discoverJwksUri } from './issuer-metadata';
import { VerifiedTokenCache } from './verified-token-cache';

type KeySet = ReturnType<typeof Jose.createRemoteJWKSet>;

export class JwtVerifier implements TokenVerifier {
  private keys?: Promise<{ jose: typeof Jose; keySet: KeySet }>;
  private readonly cache: VerifiedTokenCache;

  constructor(
    private readonly o: Readonly<OAuthResourceOptions>,
    now: () => number = Date.now,
  ) {
    this.cache = new VerifiedTokenCache(o.jwtCacheSeconds, o.jwtCacheMaxEntries, now);
  }

  async verify(token: string): Promise<VerifiedToken> {
    const key = this.cache.keyOf(token);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const { jose, keySet } = await this.keySet();
    let payload: Jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, keySet, {
        issuer: this.o.issuer ?? this.o.authorizationServers[0],
        audience: this.o.resource,
        algorithms: this.o.algorithms,
        clockTolerance: this.o.clockToleranceSeconds,
        ...(this.o.tokenType ? { typ: this.o.tokenType } : {}),
        requiredClaims: ['exp'],
      }));
    } catch (e) {
      throw refusal(jose, e);
    }
    const verified: VerifiedToken = {
      subject: payload.sub,
      clientId: typeof payload.client_id === 'string' ? payload.client_id : undefined,
      issuer: payload.iss,
      scopes: scopesOf(payload.scope ?? payload.scp),
      claims: payload,
    };
    this.cache.remember(key, verified, payload.exp);
    return verified;
  }

  /** The key set, made once; a failed discovery is tried again on the next token. */
  private keySet(): Promise<{ jose: typeof Jose; keySet: KeySet }> {
    this.keys ??= (async () => {
      const jose = await import('jose');
      const issuer = this.o.issuer ?? this.o.authorizationServers[0]!;
      const uri = this.o.jwksUri ?? (await discoverJwksUri(issuer, this.o.jwksTimeoutMs));
      const keySet = jose.createRemoteJWKSet(new URL(uri), {
        timeoutDuration: this.o.jwksTimeoutMs,
        cooldownDuration: this.o.jwksCooldownMs,
        cacheMaxAge: this.o.jwksCacheMaxAgeMs,
      });
      return { jose, keySet };
    })();
    this.keys.catch(() => (this.keys = undefined));
    return this.keys;
  }
}

/** A jose failure: the token's fault is InvalidTokenError; the key set's (timeout, fetch) is thrown as is (503). */
function refusal(jose: typeof Jose, e: unknown): unknown {
  const { errors } = jose;
  if (e instanceof errors.JWKSTimeout) return e;
  if (e instanceof errors.JOSEError && e.code === 'ERR_JOSE_GENERIC') return e;
  if (e instanceof errors.JWTExpired) return new InvalidTokenError('expired');
  if (e instanceof errors.JWTClaimValidationFailed) return new InvalidTokenError(`claim ${e.claim}: ${e.reason}`);
  if (e instanceof errors.JWKSNoMatchingKey) return new InvalidTokenError('no key of the issuer matches (kid)');
  if (e instanceof errors.JOSEAlgNotAllowed) return new InvalidTokenError('algorithm not allowed');
  if (e instanceof errors.JWSSignatureVerificationFailed) return new InvalidTokenError('bad signature');
  if (e instanceof errors.JOSEError) return new InvalidTokenError(e.code);
  return e;
}
