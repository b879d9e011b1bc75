/** What the server says when a full session pool evicted one of its sessions to make room. */
import type { ServerLogger } from '../../server/core/server-logger';
import type { SessionEviction } from './session-store';

/** One line per eviction: the pool, how old and how long idle (seconds), never the session id itself. */
export function logEviction(logger: ServerLogger, e: SessionEviction): void {
  logger.warn('legacy session evicted to make room in a full pool', {
    pool: e.pool,
    ageSeconds: Math.round(e.ageMs / 100) / 10,
    idleSeconds: Math.round(e.idleMs / 100) / 10,
    ...(e.principalId !== undefined ? { principal: e.principalId } : {}),
  });
}
