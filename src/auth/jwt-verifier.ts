/**
 * JWT access tokens (RFC 9068) checked with `jose` against the issuer's JWK Set: signature with an
 * allow-listed asymmetric algorithm, `iss`, `aud` = this resource, `exp`/`nbf`/`iat` with a small
 * skew, and a `sub` that is a non-empty string when present. The JWK Set (`RemoteKeySet`) and the
 * issuer metadata that names it are fetched on first use, one fetch at a time, and a failed fetch is
 * remembered for `failureCooldownMs`: an authorization server that is down costs one request per
 * cooldown, not one per token. `jose` is loaded on first use, so an app without OAuth never loads it.
 * A verified token is reused for `jwtCacheSeconds` (never past its `exp`): clients send the same
 * token on every request, and a signature check costs more than the rest of a call.
 */
import type * as Jose from 'jose';
import { BackedOff, DependencyUnavailableError, type BackoffClock } from './backed-off';
import { discoverJwksUri } from './issuer-metadata';
import type { OAuthResourceOptions } from './oauth-options';
import { RemoteKeySet } from './remote-key-set';
import { InvalidTokenError, scopesOf, type TokenVerifier, type VerifiedToken } from './token-verifier';
import { VerifiedTokenCache } from './verified-token-cache';

export class JwtVerifier implements TokenVerifier {
  private keys?: Promise<{ jose: typeof Jose; keySet: RemoteKeySet }>;
  private readonly cache: VerifiedTokenCache;
  private readonly clock: BackoffClock;
  private readonly jwksUri: BackedOff<string>;

  constructor(
    private readonly o: Readonly<OAuthResourceOptions>,
    now: () => number = Date.now,
    random: () => number = Math.random,
  ) {
    this.clock = { now, random };
    this.cache = new VerifiedTokenCache(o.jwtCacheSeconds, o.jwtCacheMaxEntries, now);
    const issuer = o.issuer ?? o.authorizationServers[0]!;
    let found: string | undefined = o.jwksUri;
    this.jwksUri = new BackedOff(
      'the issuer metadata',
      async () => (found ??= await discoverJwksUri(issuer, o.jwksTimeoutMs)),
      o.failureCooldownMs,
      this.clock,
    );
  }

  async verify(token: string): Promise<VerifiedToken> {
    const key = this.cache.keyOf(token);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const { jose, keySet } = await this.keySet();
    let payload: Jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, keySet.getKey, {
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
    this.checkClaims(payload);
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

  /** What jose leaves to us: `sub`'s type (so `42` and `"42"` are not one subject) and an `iat` from the future. */
  private checkClaims(payload: Jose.JWTPayload): void {
    const sub: unknown = payload.sub;
    if (sub !== undefined && (typeof sub !== 'string' || sub === '')) {
      throw new InvalidTokenError('claim sub: must be a non-empty string');
    }
    const iat: unknown = payload.iat;
    if (typeof iat === 'number' && iat - this.o.clockToleranceSeconds > this.clock.now() / 1000) {
      throw new InvalidTokenError('claim iat: issued in the future');
    }
    const clientId: unknown = payload.client_id;
    if (clientId !== undefined && (typeof clientId !== 'string' || clientId === '')) {
      throw new InvalidTokenError('claim client_id: must be a non-empty string');
    }
  }

  /** `jose` and the key set, made once (the key set itself backs off its fetches). */
  private keySet(): Promise<{ jose: typeof Jose; keySet: RemoteKeySet }> {
    this.keys ??= (async () => {
      const jose = await import('jose');
      const keySet = new RemoteKeySet(
        jose,
        () => this.jwksUri.get(),
        {
          timeoutMs: this.o.jwksTimeoutMs,
          cacheMaxAgeMs: this.o.jwksCacheMaxAgeMs,
          kidCooldownMs: this.o.jwksCooldownMs,
          failureCooldownMs: this.o.failureCooldownMs,
        },
        this.clock,
      );
      return { jose, keySet };
    })();
    this.keys.catch(() => (this.keys = undefined));
    return this.keys;
  }
}

/** A jose failure: the token's fault is InvalidTokenError; the key set's (unreachable) is thrown as is (503). */
function refusal(jose: typeof Jose, e: unknown): unknown {
  const { errors } = jose;
  if (e instanceof DependencyUnavailableError) return e;
  if (e instanceof errors.JWTExpired) return new InvalidTokenError('expired');
  if (e instanceof errors.JWTClaimValidationFailed) return new InvalidTokenError(`claim ${e.claim}: ${e.reason}`);
  if (e instanceof errors.JWKSNoMatchingKey) return new InvalidTokenError('no key of the issuer matches (kid)');
  if (e instanceof errors.JWKSMultipleMatchingKeys) return new InvalidTokenError('several keys match (kid)');
  if (e instanceof errors.JOSEAlgNotAllowed) return new InvalidTokenError('algorithm not allowed');
  if (e instanceof errors.JWSSignatureVerificationFailed) return new InvalidTokenError('bad signature');
  if (e instanceof errors.JOSEError) return new InvalidTokenError(e.code);
  return e;
}
