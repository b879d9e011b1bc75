/**
 * DNS-rebinding protection (E1-E4) and CORS. A browser page on evil.example that resolves its
 * name to 127.0.0.1 still sends `Host: evil.example` and its own `Origin`; both are checked
 * against allowlists. A request without Origin (not a browser) passes the Origin check.
 */
import type { HttpOptions } from './http-options';
import { firstOf, header, type HeaderBag } from './http-exchange';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const LOOPBACK_HOST_ANY_PORT = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/;

export interface HostPolicy {
  /** undefined: any Host (dangerouslyAllowAnyHost). */
  readonly hosts?: ReadonlySet<string> | 'loopback-any-port';
  readonly origins?: ReadonlySet<string> | 'loopback-any-port';
  /** CORS: origins that get Access-Control-Allow-Origin (never `*`). */
  readonly corsOrigins?: ReadonlySet<string>;
  readonly corsMaxAge: number;
}

function loopbackHosts(port: number): string[] {
  return LOOPBACK_NAMES.flatMap((n) => (port === 80 ? [n, `${n}:80`] : [`${n}:${port}`]));
}

/** Builds the policy; `port` is the real bound port when known (serveHttp), undefined for adapters. */
export function hostPolicy(options: Readonly<HttpOptions>, port?: number): HostPolicy {
  const corsMaxAge = options.cors?.maxAgeSeconds ?? 600;
  const hosts = options.allowedHosts
    ? new Set(options.allowedHosts.map((h) => h.toLowerCase()))
    : options.dangerouslyAllowAnyHost
      ? undefined
      : port === undefined
        ? ('loopback-any-port' as const)
        : new Set(loopbackHosts(port));
  let origins: HostPolicy['origins'];
  if (options.allowedOrigins) origins = new Set(options.allowedOrigins);
  else if (hosts === 'loopback-any-port') origins = 'loopback-any-port';
  else if (hosts) origins = new Set([...hosts].flatMap((h) => [`http://${h}`, `https://${h}`]));
  const corsOrigins = options.cors
    ? new Set(options.cors.origins ?? (origins instanceof Set ? [...origins] : []))
    : undefined;
  if (origins instanceof Set && corsOrigins) origins = new Set([...origins, ...corsOrigins]);
  return { hosts, origins, corsOrigins, corsMaxAge };
}

function loopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // Only the exact serialized form browsers send: no userinfo, path, trailing dot or case games.
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.origin === origin &&
    LOOPBACK_HOST_ANY_PORT.test(url.host)
  );
}

/**
 * The last Host value a policy allowed, as sent. Clients send one Host value request after request, and
 * comparing two short strings costs less than lowercasing one and hashing it (a fresh header string has
 * no hash yet) for the Set. The decision is a function of the value and the policy alone.
 */
let allowedHost: string | undefined;
let allowedHostPolicy: HostPolicy | undefined;

/** undefined when allowed, otherwise why not (the response is 403). */
export function rejectHostOrOrigin(headers: HeaderBag, policy: HostPolicy): string | undefined {
  if (policy.hosts) {
    const raw = firstOf(headers.host);
    if (raw === undefined) return 'Missing Host header';
    if (raw !== allowedHost || policy !== allowedHostPolicy) {
      const host = raw.toLowerCase();
      const ok = policy.hosts === 'loopback-any-port' ? LOOPBACK_HOST_ANY_PORT.test(host) : policy.hosts.has(host);
      if (!ok) return `Host not allowed: ${host}`;
      allowedHost = raw;
      allowedHostPolicy = policy;
    }
  }
  const origin = firstOf(headers.origin);
  if (origin !== undefined && policy.origins) {
    const ok = policy.origins === 'loopback-any-port' ? loopbackOrigin(origin) : policy.origins.has(origin);
    if (!ok) return 'Origin not allowed';
  }
  return undefined;
}

const CORS_HEADERS = new Set([
  'content-type',
  'accept',
  'authorization',
  'mcp-protocol-version',
  'mcp-session-id',
  'mcp-method',
  'mcp-name',
  'last-event-id',
]);

/** No CORS headers: one frozen object shared by every response (callers spread it, never write it). */
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Response headers that let an allowlisted browser origin read the response. */
export function corsHeaders(headers: HeaderBag, policy: HostPolicy): Record<string, string> {
  if (!policy.corsOrigins) return NO_HEADERS;
  const origin = firstOf(headers.origin);
  if (origin === undefined || !policy.corsOrigins.has(origin)) return NO_HEADERS;
  return {
    'Access-Control-Allow-Origin': origin,
    Vary: 'Origin',
    'Access-Control-Expose-Headers': 'Mcp-Session-Id, WWW-Authenticate, Retry-After',
  };
}

/** Preflight answer, or undefined when CORS is off or the origin is not allowlisted. */
export function preflight(headers: HeaderBag, policy: HostPolicy): Record<string, string> | undefined {
  const base = corsHeaders(headers, policy);
  if (!base['Access-Control-Allow-Origin']) return undefined;
  const requested = (header(headers, 'access-control-request-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h && (CORS_HEADERS.has(h) || h.startsWith('mcp-param-')));
  return {
    ...base,
    'Access-Control-Allow-Methods': 'GET, POST, DELETE',
    'Access-Control-Allow-Headers': [...new Set([...CORS_HEADERS, ...requested])].join(', '),
    'Access-Control-Max-Age': String(policy.corsMaxAge),
  };
}
