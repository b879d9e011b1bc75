/**
 * `OAuthResourceOptions`: what `OAuthResourceModule.configure` takes. Validated once and frozen;
 * the cross-field checks (URLs, algorithms, which verifier) fail start-up with every problem named.
 */
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { HasMethods, IsFunction } from '../config/option-rules';
import type { OptionProblem } from '../config/validate-options';
import type { Principal } from '../context/principal';
import type { TokenVerifier, VerifiedToken } from './token-verifier';

/** Asymmetric JWS algorithms accepted by default (RFC 9068 access tokens). Never `none`, never HMAC. */
export const DEFAULT_TOKEN_ALGORITHMS = Object.freeze([
  'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519',
]);

/** RFC 7662 introspection for opaque access tokens. */
export class IntrospectionOptions {
  /** The authorization server's introspection endpoint. */
  @IsString() endpoint!: string;
  /** This resource server's credentials at the authorization server (client_secret_basic). */
  @IsString() clientId!: string;
  @IsString() clientSecret!: string;
  @IsInt() @Min(100) @Max(60_000) timeoutMs = 5000;
  /** How long an active answer is reused (never past the token's `exp`); 0 turns the cache off. */
  @IsInt() @Min(0) @Max(300) cacheSeconds = 30;
  @IsInt() @Min(1) @Max(1_000_000) maxCacheEntries = 10_000;
  /** How long a token the server called inactive is refused without asking again; 0 asks every time. */
  @IsInt() @Min(0) @Max(300) negativeCacheSeconds = 10;
  /** Introspection requests at once (copies of one token share one); over it a new token gets 503. */
  @IsInt() @Min(1) @Max(10_000) maxInFlight = 32;
}

export class OAuthResourceOptions {
  /** This server's canonical URI (RFC 8707), e.g. `https://mcp.example.com/mcp`: the audience tokens must name. */
  @IsString() resource!: string;
  /** The issuer URLs of the authorization servers clients may use (RFC 9728 `authorization_servers`). */
  @IsArray() @ArrayMinSize(1) @IsString({ each: true }) authorizationServers!: string[];
  /** The `iss` JWT access tokens must carry; default the first authorization server. */
  @IsOptional() @IsString() issuer?: string;
  /** The issuer's JWK Set; default `jwks_uri` from its metadata (RFC 8414, then OpenID discovery). */
  @IsOptional() @IsString() jwksUri?: string;
  /** Verify JWT access tokens with the issuer's keys (turn off to send every token to introspection). */
  @IsBoolean() jwt = true;
  /** Accepted JWS algorithms: asymmetric only. */
  @IsArray() @ArrayMinSize(1) @IsString({ each: true }) algorithms: string[] = [...DEFAULT_TOKEN_ALGORITHMS];
  /** The JWT `typ` tokens must carry (e.g. `at+jwt`, RFC 9068); default any. */
  @IsOptional() @IsString() tokenType?: string;
  /** Allowed clock difference for `exp`, `nbf` and `iat`. */
  @IsInt() @Min(0) @Max(300) clockToleranceSeconds = 30;
  /** How long fetching the JWK Set (or the issuer metadata) may take. */
  @IsInt() @Min(100) @Max(60_000) jwksTimeoutMs = 5000;
  /** A token with an unknown `kid` re-fetches the JWK Set at most this often. */
  @IsInt() @Min(0) @Max(3_600_000) jwksCooldownMs = 30_000;
  /**
   * After a failed fetch from the authorization server (metadata, JWK Set, introspection), how long
   * tokens that need it are answered 503 without asking again (plus up to half of it as jitter).
   */
  @IsInt() @Min(100) @Max(300_000) failureCooldownMs = 5000;
  /** How long fetched keys are used before they are fetched again. */
  @IsInt() @Min(1000) jwksCacheMaxAgeMs = 600_000;
  /**
   * How long a verified JWT is reused without checking its signature again (never past its `exp`);
   * 0 verifies every request. A key the issuer withdraws stops working after at most this long.
   */
  @IsInt() @Min(0) @Max(300) jwtCacheSeconds = 30;
  /** Verified JWTs kept at most (the oldest goes first). */
  @IsInt() @Min(1) @Max(1_000_000) jwtCacheMaxEntries = 10_000;
  /** Opaque access tokens are introspected (RFC 7662) here. */
  @IsOptional() @ValidateNested() @Type(() => IntrospectionOptions) introspection?: IntrospectionOptions;
  /** Any other kind of token: your own verifier (it replaces JWT and introspection). */
  @IsOptional() @HasMethods('verify') verifier?: TokenVerifier;
  /** Maps a verified token to the principal handlers see; default `oauthPrincipal`. */
  @IsOptional() @IsFunction() principal?: (token: VerifiedToken) => Principal;
  /** Scopes listed in the metadata (`scopes_supported`) and asked for in a 401's `scope`. */
  @IsOptional() @IsArray() @IsString({ each: true }) scopesSupported?: string[];
  /** Human-readable name (`resource_name`) and documentation URL (`resource_documentation`) of the metadata. */
  @IsOptional() @IsString() resourceName?: string;
  @IsOptional() @IsString() resourceDocumentation?: string;
  /** Authorization headers longer than this are refused before anything is parsed. */
  @IsInt() @Min(256) @Max(65_536) maxAuthorizationBytes = 8192;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An absolute https URL without fragment (http only on loopback); undefined when it is one. */
export function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash !== '' || value.includes('#')) return 'must not have a fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return undefined;
  return 'must be an https URL (http only on localhost, 127.0.0.1 or [::1])';
}

/** The checks over several fields, run after each field's own rules passed. */
export function oauthOptionProblems(o: Readonly<OAuthResourceOptions>): OptionProblem[] {
  const problems: OptionProblem[] = [];
  const url = (field: string, value: string | undefined) => {
    const p = value === undefined ? undefined : urlProblem(value);
    if (p) problems.push({ field, message: `${p} (got "${value}")` });
  };
  url('resource', o.resource);
  if (o.resource.includes('?')) problems.push({ field: 'resource', message: 'must not have a query' });
  o.authorizationServers.forEach((s, i) => url(`authorizationServers[${i}]`, s));
  url('issuer', o.issuer);
  url('jwksUri', o.jwksUri);
  if (o.introspection) url('introspection.endpoint', o.introspection.endpoint);
  const weak = o.algorithms.filter((a) => a === 'none' || /^HS/i.test(a) || !DEFAULT_TOKEN_ALGORITHMS.includes(a));
  if (weak.length) {
    problems.push({
      field: 'algorithms',
      message: `${weak.join(', ')} not accepted: only asymmetric algorithms (${DEFAULT_TOKEN_ALGORITHMS.join(', ')})`,
    });
  }
  if (o.verifier && (o.introspection || o.jwksUri)) {
    problems.push({ field: 'verifier', message: 'a custom verifier replaces JWT and introspection: give one or the other' });
  }
  if (!o.verifier && !o.jwt && !o.introspection) {
    problems.push({ field: 'jwt', message: 'with jwt: false, give introspection or a verifier (no token could pass)' });
  }
  return problems;
}
