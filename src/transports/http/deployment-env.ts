/**
 * The environment a deployed app reads (the sample and conformance apps do, and yours may): a bad
 * value stops start-up with a message naming the variable, rather than a fleet half configured.
 */
import { optionsError, type OptionProblem } from '../../config/validate-options';
import type { HttpOptions } from './http-options';

export interface DeploymentEnv {
  /** `PORT`: the port to listen on. */
  port?: number;
  /** `REQUEST_STATE_KEY`: the requestState key every instance of a fleet shares. */
  requestStateKey?: string;
  /** `REDIS_URL` (`redis://` or `rediss://`): shared stores on. */
  redisUrl?: string;
  /** `ALLOWED_HOSTS`: comma-separated `host:port` values a reverse proxy forwards (Host/Origin guard). */
  allowedHosts?: string[];
  /** `SESSION_ID_PREFIX`: this instance's tag in legacy session ids, for a load balancer to route by. */
  sessionIdPrefix?: string;
  /** `READINESS_PATH`: serve the readiness route there (e.g. `/ready`). */
  readinessPath?: string;
  /** `READINESS_PORT`: also answer readiness on this port, from a worker thread (fast under load). */
  readinessPort?: number;
  /** `MAX_SESSIONS`, `MAX_SESSIONS_PER_PRINCIPAL`, `MAX_ANONYMOUS_SESSIONS`, `SESSION_EVICTION_MIN_IDLE_MS`. */
  sessionPools?: Partial<Pick<HttpOptions, SessionPoolOption>>;
}

/** The session pool options a fleet sets by environment (every instance the same). */
type SessionPoolOption =
  | 'maxSessions'
  | 'maxSessionsPerPrincipal'
  | 'maxAnonymousSessions'
  | 'sessionEvictionMinIdleMs';
const SESSION_POOL_ENV: ReadonlyArray<[string, SessionPoolOption]> = [
  ['MAX_SESSIONS', 'maxSessions'],
  ['MAX_SESSIONS_PER_PRINCIPAL', 'maxSessionsPerPrincipal'],
  ['MAX_ANONYMOUS_SESSIONS', 'maxAnonymousSessions'],
  ['SESSION_EVICTION_MIN_IDLE_MS', 'sessionEvictionMinIdleMs'],
];

const HOST_PORT = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;
const PREFIX = /^[A-Za-z0-9_-]{1,32}$/;

export function readDeploymentEnv(env: Readonly<Record<string, string | undefined>> = process.env): DeploymentEnv {
  const problems: OptionProblem[] = [];
  const out: DeploymentEnv = {};
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const port = value('PORT');
  if (port !== undefined) {
    const n = Number(port);
    if (/^\d+$/.test(port) && n <= 65_535) out.port = n;
    else problems.push({ field: 'PORT', message: `must be an integer 0-65535, got ${JSON.stringify(port)}` });
  }
  const key = value('REQUEST_STATE_KEY');
  if (key !== undefined) out.requestStateKey = key;
  const redisUrl = value('REDIS_URL');
  if (redisUrl !== undefined) {
    if (/^rediss?:\/\/[^\s]+$/.test(redisUrl)) out.redisUrl = redisUrl;
    else problems.push({ field: 'REDIS_URL', message: 'must be a redis:// or rediss:// URL' });
  }
  const hosts = value('ALLOWED_HOSTS');
  if (hosts !== undefined) {
    const list = hosts.split(',').map((h) => h.trim()).filter((h) => h !== '');
    const bad = list.filter((h) => !HOST_PORT.test(h));
    if (bad.length)
      problems.push({
        field: 'ALLOWED_HOSTS',
        message: `expected comma-separated host:port values, not ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
      });
    else out.allowedHosts = list.map((h) => h.toLowerCase());
  }
  const prefix = value('SESSION_ID_PREFIX');
  if (prefix !== undefined) {
    if (PREFIX.test(prefix)) out.sessionIdPrefix = prefix;
    else problems.push({ field: 'SESSION_ID_PREFIX', message: 'must be 1-32 letters, digits, _ or -' });
  }
  const readiness = value('READINESS_PATH');
  if (readiness !== undefined) {
    if (/^\/[A-Za-z0-9/_.-]*$/.test(readiness)) out.readinessPath = readiness;
    else problems.push({ field: 'READINESS_PATH', message: 'must be a path such as /ready' });
  }
  const readinessPort = value('READINESS_PORT');
  if (readinessPort !== undefined) {
    if (/^\d{1,5}$/.test(readinessPort) && Number(readinessPort) <= 65_535) out.readinessPort = Number(readinessPort);
    else problems.push({ field: 'READINESS_PORT', message: 'must be a port number (0-65535)' });
  }
  for (const [name, option] of SESSION_POOL_ENV) {
    const v = value(name);
    if (v === undefined) continue;
    if (/^\d{1,9}$/.test(v)) (out.sessionPools ??= {})[option] = Number(v);
    else problems.push({ field: name, message: `must be a non-negative integer, got ${JSON.stringify(v)}` });
  }
  if (problems.length) throw optionsError('environment', problems);
  return out;
}

/**
 * The `serveHttp` options the environment sets (127.0.0.1 and `PORT`, default 3000): the proxy's
 * hosts plus this instance's own loopback address (so probes that reach it directly still pass the
 * Host guard), the session tag and the readiness route.
 */
export function httpOptionsFromEnv(
  env: DeploymentEnv,
  defaults: { port?: number; path?: string } = {},
): Partial<HttpOptions> {
  const port = env.port ?? defaults.port ?? 3000;
  const options: Partial<HttpOptions> = { host: '127.0.0.1', port, path: defaults.path ?? '/mcp' };
  if (env.allowedHosts) options.allowedHosts = [...env.allowedHosts, `127.0.0.1:${port}`, `localhost:${port}`];
  if (env.sessionIdPrefix) options.sessionIdPrefix = env.sessionIdPrefix;
  if (env.readinessPath) options.readinessPath = env.readinessPath;
  if (env.readinessPort !== undefined) options.readinessPort = env.readinessPort;
  // Behind a proxy (its hosts are allowed): close connections only once it stopped sending here, and
  // for longer than it keeps an idle connection (deploy/nginx.conf: 4 s), so none is still in its pool.
  if (env.allowedHosts) options.drainQuietMs = 5000;
  return { ...options, ...env.sessionPools };
}
