/**
 * The opt-in readiness route of `serveHttp` (`readinessPath`), for a load balancer or an
 * orchestrator: 200 while the instance takes requests, 503 once it drains or while its shared
 * stores (Redis) cannot be reached. It reports the requestState key fingerprint, so an instance
 * started with another key shows at a glance. Answered before anything else, from two flags: no
 * I/O, so it stays fast under load.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathOf } from './node-handler';

export interface ReadinessFacts {
  readonly path: string;
  readonly stateKeyFingerprint: string;
  readonly draining: () => boolean;
  readonly storesReachable: () => boolean;
}

/** Answers the readiness route and returns true, or returns false for any other path. */
export function answerReadiness(req: IncomingMessage, res: ServerResponse, facts: ReadinessFacts): boolean {
  if (pathOf(req.url) !== facts.path) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return true;
  }
  const draining = facts.draining();
  const status = draining ? 'draining' : facts.storesReachable() ? 'ready' : 'store-unreachable';
  const body = JSON.stringify({ status, requestStateKey: facts.stateKeyFingerprint });
  res.writeHead(status === 'ready' ? 200 : 503, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
    ...(draining ? { Connection: 'close' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
