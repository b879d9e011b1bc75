/**
 * The OAuth protected resource behind `OAuthResourceModule`: reads the Authorization header
 * (size-capped before anything is parsed), picks the verifier (yours; JWT for a JWS; introspection
 * for anything else), and turns the verified token into the principal. The token is never logged:
 * a refusal carries a reason for the server's logger, and a generic description for the client.
 */
import type { Principal } from '../context/principal';
import type { BearerChallenge, ResourceServer, TokenOutcome, TokenRefusal } from '../server/core/resource-server';
import { bearerChallenge } from './bearer-challenge';
import { IntrospectionVerifier } from './introspection-verifier';
import { JwtVerifier } from './jwt-verifier';
import { LogThrottle } from './log-throttle';
import type { OAuthResourceOptions } from './oauth-options';
import { oauthPrincipal } from './oauth-principal';
import { metadataDocument, metadataPaths, metadataUrl } from './resource-metadata';
import { InvalidTokenError, type TokenVerifier } from './token-verifier';

/** RFC 6750 §2.1: `Bearer` then a b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
/** A JWS in compact form: three base64url segments. */
const JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const INVALID = 'The access token is invalid or expired';

export class OAuthResource implements ResourceServer {
  readonly resource: string;
  readonly metadataPaths: readonly string[];
  readonly metadataBody: string;
  private readonly metadataUrl: string;
  private readonly jwt?: TokenVerifier;
  private readonly introspection?: TokenVerifier;
  private readonly toPrincipal: (token: Parameters<typeof oauthPrincipal>[0]) => Principal;
  private readonly logs = new LogThrottle();

  constructor(private readonly o: Readonly<OAuthResourceOptions>) {
    this.resource = o.resource;
    this.metadataPaths = Object.freeze(metadataPaths(o.resource));
    this.metadataBody = metadataDocument(o);
    this.metadataUrl = metadataUrl(o.resource);
    this.toPrincipal = o.principal ?? oauthPrincipal;
    if (!o.verifier) {
      if (o.jwt) this.jwt = new JwtVerifier(o);
      if (o.introspection) {
        this.introspection = new IntrospectionVerifier(o.introspection, {
          resource: o.resource,
          issuer: o.issuer ?? o.authorizationServers[0],
          clockToleranceSeconds: o.clockToleranceSeconds,
          failureCooldownMs: o.failureCooldownMs,
        });
      }
    }
  }

  challenge(c: BearerChallenge): string {
    return bearerChallenge(this.metadataUrl, { ...c, scopes: c.scopes ?? this.o.scopesSupported });
  }

  async authenticate(authorization: string | undefined): Promise<TokenOutcome> {
    const outcome = await this.decide(authorization);
    if (outcome.ok || outcome.reason === undefined) return outcome;
    // The reason is for the logger: at most a few lines per window, whatever the traffic.
    return { ...outcome, reason: this.logs.admit(String(outcome.status), outcome.reason) };
  }

  private async decide(authorization: string | undefined): Promise<TokenOutcome> {
    if (authorization === undefined || authorization === '') {
      return { ok: false, status: 401, description: 'Authorization required' };
    }
    if (authorization.length > this.o.maxAuthorizationBytes) {
      return refuse(401, 'invalid_token', 'The access token is too large', 'Authorization header over maxAuthorizationBytes');
    }
    const match = BEARER.exec(authorization);
    if (!match) {
      // Another scheme is not an error of this one (RFC 6750 §3.1): challenge without `error`.
      if (!/^Bearer(\s|$)/i.test(authorization)) return { ok: false, status: 401, description: 'Use a Bearer token' };
      return refuse(400, 'invalid_request', 'Malformed Bearer credentials', 'malformed Authorization header');
    }
    return this.verify(match[1]!);
  }

  private async verify(token: string): Promise<TokenOutcome> {
    const verifier = this.verifierFor(token);
    if (!verifier) return refuse(401, 'invalid_token', INVALID, 'not a JWT, and no introspection configured');
    try {
      return { ok: true, principal: this.toPrincipal(await verifier.verify(token)) };
    } catch (e) {
      if (e instanceof InvalidTokenError) return refuse(401, 'invalid_token', INVALID, e.reason);
      const reason = `token verification unavailable: ${e instanceof Error ? e.message : String(e)}`;
      return refuse(503, undefined, 'The access token cannot be verified now', reason);
    }
  }

  private verifierFor(token: string): TokenVerifier | undefined {
    if (this.o.verifier) return this.o.verifier;
    if (this.jwt && JWS.test(token)) return this.jwt;
    return this.introspection;
  }
}

function refuse(
  status: TokenRefusal['status'],
  error: TokenRefusal['error'],
  description: string,
  reason: string,
): TokenRefusal {
  return { ok: false, status, error, description, reason };
}
