/** `HttpOptions`: the Streamable HTTP endpoint's configuration, validated once and frozen (DESIGN D9). */
import {
  ArrayNotContains,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { HasMethods } from '../../config/option-rules';
import { validateOptions } from '../../config/validate-options';
import type { EventStore } from './event-store';

export class CorsOptions {
  /**
   * Origins allowed to call from a browser (exact serialized origins; `*` is refused). Defaults to `allowedOrigins`.
   */
  @IsOptional() @IsArray() @IsString({ each: true }) @ArrayNotContains(['*', 'null']) origins?: string[];
  @IsInt() @Min(0) @Max(86_400) maxAgeSeconds = 600;
}

export class HttpOptions {
  /** The single MCP endpoint. */
  @IsString() @Matches(/^\/[^?#\s]*$/) path = '/mcp';
  /** Address to bind (serveHttp). Loopback by default: only this machine can connect. */
  @IsString() host = '127.0.0.1';
  /**
   * Port to bind (serveHttp); 0 picks a free one.
   */
  @IsInt() @Min(0) @Max(65_535) port = 3000;
  /**
   * Accepted `Host` values (`name:port`, lowercase). Default for loopback binds: localhost, 127.0.0.1 and [::1] with
   * the real port.
   */
  @IsOptional() @IsArray() @IsString({ each: true }) allowedHosts?: string[];
  /**
   * Peer addresses (exact, as the socket reports them) of reverse proxies whose `X-Forwarded-For` is
   * believed: a request from one gets the right-most untrusted hop as its client address. Default none:
   * the socket's address is the client's (what `RateLimit({ anonymousKey: 'clientAddress' })` keys by).
   */
  @IsOptional() @IsArray() @IsString({ each: true }) trustedProxies?: string[];
  /**
   * Accepted `Origin` values (exact). Default: http(s) origins of the allowed loopback hosts. A request without Origin
   * is allowed.
   */
  @IsOptional() @IsArray() @IsString({ each: true }) @ArrayNotContains(['*']) allowedOrigins?: string[];
  /**
   * Turns Host/Origin checks off (behind a proxy that checks them). Required to bind a non-loopback host without
   * allowlists.
   */
  @IsBoolean() dangerouslyAllowAnyHost = false;
  /** CORS for browser clients; off unless set. */
  @IsOptional() @ValidateNested() @Type(() => CorsOptions) cors?: CorsOptions;
  /** Largest request body; checked on Content-Length and while streaming (413). */
  @IsInt() @Min(1024) maxBodyBytes = 4 * 1024 * 1024;
  /** Largest request head (request line and headers) `serveHttp` reads; larger is 431. node:http's `maxHeaderSize`. */
  @IsInt() @Min(1024) @Max(1_048_576) maxHeaderBytes = 16 * 1024;
  /** node:http `headersTimeout` (slow-loris guard). */
  @IsInt() @Min(1000) headersTimeoutMs = 30_000;
  /** node:http `requestTimeout`: time to receive a whole request (0 disables). SSE responses are not affected. */
  @IsInt() @Min(0) requestTimeoutMs = 60_000;
  @IsInt() @Min(0) keepAliveTimeoutMs = 5_000;
  /**
   * On close, after in-flight work drained: keep the connections open until no request arrived for
   * this long (at most keepAliveTimeoutMs), answering 503 + `Connection: close`. Behind a load
   * balancer this keeps it from sending a request on a connection being closed (a 502 it may not
   * retry). 0 (default) closes at once.
   */
  @IsInt() @Min(0) @Max(60_000) drainQuietMs = 0;
  /** Open legacy sessions at most; a full pool evicts its idlest session (below), else 503. */
  @IsInt() @Min(1) maxSessions = 10_000;
  /** Sessions one authenticated principal may hold inside maxSessions; when full, as maxSessions but 429. */
  @IsInt() @Min(1) maxSessionsPerPrincipal = 100;
  /** Sessions all clients without a principal may hold together (they cannot be told apart); as above. */
  @IsInt() @Min(1) maxAnonymousSessions = 1000;
  /** A legacy session unused this long (no request, no open stream) is evicted. */
  @IsInt() @Min(1000) sessionIdleTimeoutMs = 30 * 60_000;
  /**
   * A full session pool makes room by evicting its least recently used session idle at least this
   * long (nothing in flight, no open stream); the evicted session's next request gets 404.
   */
  @IsInt() @Min(0) sessionEvictionMinIdleMs = 5_000;
  /** Legacy resumability: where SSE events are kept for `Last-Event-ID`. In-memory and bounded by default. */
  @IsOptional() @HasMethods('append', 'eventsAfter') eventStore?: EventStore;
  /**
   * This instance's tag in legacy session ids (`i1` gives `i1.<uuid>`): a load balancer routes a
   * session's requests to the instance that holds it by the tag (deploy/nginx.conf).
   */
  @IsOptional() @IsString() @Matches(/^[A-Za-z0-9_-]{1,32}$/, { message: 'sessionIdPrefix must be 1-32 letters, digits, _ or -' })
  sessionIdPrefix?: string;
  /**
   * `serveHttp` answers `GET <readinessPath>` with 200 `{ status: 'ready', requestStateKey }` (the key
   * fingerprint) while it takes requests, 503 `{ status: 'draining' }` once closing. Off unless set.
   */
  @IsOptional() @IsString() @Matches(/^\/[A-Za-z0-9/_.-]*$/) readinessPath?: string;
  /**
   * Also answer readiness (at `readinessPath`, default `/ready`) on this port, from a worker thread:
   * fast however busy the request loop is (0: any free port, see the handle's `readinessPort`).
   */
  @IsOptional() @IsInt() @Min(0) @Max(65_535) readinessPort?: number;
  /** `retry:` sent with the 2025-11-25 priming event. */
  @IsInt() @Min(0) sseRetryMs = 1000;
  /** Keep-alive comment interval on long-lived SSE streams (0 disables). */
  @IsInt() @Min(0) sseKeepAliveMs = 15_000;
}

export function validateHttpOptions(input: Partial<HttpOptions> = {}): Readonly<HttpOptions> {
  return validateOptions(HttpOptions, input, { label: 'HttpOptions', nested: { cors: CorsOptions } });
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}
