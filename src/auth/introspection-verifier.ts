/**
 * Opaque access tokens through RFC 7662 introspection: POST the token to the authorization server
 * (as this resource server's client, with a timeout), accept an `active` answer whose `aud` names
 * this resource (when it says) and whose `iss` is the expected issuer (when it says). What keeps the
 * authorization server safe from our traffic: active answers are kept a short while
 * (VerifiedTokenCache: never past `exp`), refused tokens for `negativeCacheSeconds`, copies of a
 * token being introspected share its request, at most `maxInFlight` requests run at once, and after
 * a failed request (error, timeout) every token gets 503 for `failureCooldownMs` (with jitter)
 * without a request. All keyed by the token's SHA-256, never the token.
 */
import { createHash } from 'node:crypto';
import { DependencyUnavailableError, jittered, SYSTEM_CLOCK, type BackoffClock } from './backed-off';
import { fetchJson } from './fetch-json';
import type { IntrospectionOptions } from './oauth-options';
import { InvalidTokenError, scopesOf, type TokenVerifier, type VerifiedToken } from './token-verifier';
import { VerifiedTokenCache } from './verified-token-cache';

export interface IntrospectionExpectations {
  resource: string;
  issuer?: string;
  clockToleranceSeconds: number;
  /** Default 5000. */
  failureCooldownMs?: number;
}

export class IntrospectionVerifier implements TokenVerifier {
  private readonly cache: VerifiedTokenCache;
  private readonly refused = new Map<string, { reason: string; untilMs: number }>();
  private readonly inFlight = new Map<string, Promise<VerifiedToken>>();
  private failedUntil = 0;
  private lastFailure: unknown;
  private readonly clock: BackoffClock;

  constructor(
    private readonly o: Readonly<IntrospectionOptions>,
    private readonly expect: IntrospectionExpectations,
    private readonly now: () => number = Date.now,
    random: () => number = SYSTEM_CLOCK.random,
  ) {
    this.cache = new VerifiedTokenCache(o.cacheSeconds, o.maxCacheEntries, now);
    this.clock = { now, random };
  }

  async verify(token: string): Promise<VerifiedToken> {
    const key = createHash('sha256').update(token).digest('base64url');
    const hit = this.cache.get(this.o.cacheSeconds > 0 ? key : undefined);
    if (hit) return hit;
    const no = this.refused.get(key);
    if (no && no.untilMs > this.now()) throw new InvalidTokenError(`${no.reason} (remembered)`);
    const running = this.inFlight.get(key);
    if (running) return running;
    if (this.failedUntil > this.now()) {
      throw new DependencyUnavailableError('introspection', this.lastFailure, this.failedUntil - this.now());
    }
    if (this.inFlight.size >= this.o.maxInFlight) {
      throw new DependencyUnavailableError('introspection', `${this.o.maxInFlight} requests already in flight (maxInFlight)`);
    }
    const run = this.introspect(token, key);
    this.inFlight.set(key, run);
    const done = () => this.inFlight.delete(key);
    run.then(done, done);
    return run;
  }

  private async introspect(token: string, key: string): Promise<VerifiedToken> {
    let answer: Record<string, unknown>;
    try {
      answer = await fetchJson(this.o.endpoint, {
        method: 'POST',
        timeoutMs: this.o.timeoutMs,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${basic(this.o.clientId, this.o.clientSecret)}`,
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      });
    } catch (e) {
      this.lastFailure = e;
      this.failedUntil = this.now() + jittered(this.expect.failureCooldownMs ?? 5000, this.clock);
      throw new DependencyUnavailableError('introspection', e);
    }
    this.failedUntil = 0;
    let verified: VerifiedToken;
    try {
      verified = this.check(answer);
    } catch (e) {
      if (e instanceof InvalidTokenError) this.rememberRefusal(key, e.reason);
      throw e;
    }
    this.cache.remember(this.o.cacheSeconds > 0 ? key : undefined, verified, answer.exp);
    return verified;
  }

  private rememberRefusal(key: string, reason: string): void {
    if (this.o.negativeCacheSeconds === 0) return;
    if (this.refused.size >= this.o.maxCacheEntries) {
      const oldest = this.refused.keys().next();
      if (!oldest.done) this.refused.delete(oldest.value);
    }
    this.refused.set(key, { reason, untilMs: this.now() + this.o.negativeCacheSeconds * 1000 });
  }

  private check(a: Record<string, unknown>): VerifiedToken {
    if (a.active !== true) throw new InvalidTokenError('introspection: not active');
    const nowS = this.now() / 1000;
    const skew = this.expect.clockToleranceSeconds;
    if (typeof a.exp === 'number' && a.exp + skew <= nowS) throw new InvalidTokenError('introspection: expired');
    if (typeof a.nbf === 'number' && a.nbf - skew > nowS) throw new InvalidTokenError('introspection: not yet valid');
    if (typeof a.iat === 'number' && a.iat - skew > nowS) {
      throw new InvalidTokenError('introspection: issued in the future');
    }
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
    if (a.sub !== undefined && (typeof a.sub !== 'string' || a.sub === '')) {
      throw new InvalidTokenError('introspection: sub must be a non-empty string');
    }
    if (a.client_id !== undefined && (typeof a.client_id !== 'string' || a.client_id === '')) {
      throw new InvalidTokenError('introspection: client_id must be a non-empty string');
    }
    return {
      subject: typeof a.sub === 'string' ? a.sub : undefined,
      clientId: typeof a.client_id === 'string' ? a.client_id : undefined,
      issuer: typeof a.iss === 'string' ? a.iss : this.expect.issuer,
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
