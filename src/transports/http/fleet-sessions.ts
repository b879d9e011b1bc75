/**
 * Legacy sessions counted across the fleet: with a shared lease counter (EndpointSettings.leases),
 * a session takes a lease in its owner's bucket (a principal's, or the anonymous one) and one in
 * the total bucket before it is created, renewed while it lives and released when it ends or is
 * evicted. The caps are the local ones (maxSessionsPerPrincipal / maxAnonymousSessions, maxSessions).
 */
import { thrownDetail } from '../../server/core/server-logger';
import { takeFleetSlot, type FleetSlot } from '../../state/fleet-slot';
import type { EndpointContext } from './endpoint-context';
import { SessionStore, type SessionRefusal } from './session-store';

/** Attempts to take a fleet-wide slot: each refusal first evicts one of this instance's idle sessions. */
const ATTEMPTS = 3;

/**
 * The slot (none without a shared counter), the refusal of a full pool, or 'unavailable' (the store
 * failed). A full fleet-wide pool makes room from this instance's own sessions of that pool (the
 * least recently used one idle long enough), whose slot is given back before asking again.
 */
export async function takeSessionSlot(
  ctx: EndpointContext,
  principalId: string | undefined,
): Promise<FleetSlot | undefined | SessionRefusal | 'unavailable'> {
  const leases = ctx.server.settings.leases;
  if (!leases) return undefined;
  for (let attempt = 1; ; attempt++) {
    let taken: FleetSlot | 'owner' | 'total';
    try {
      taken = await takeFleetSlot(leases, {
        kind: 'session',
        principalId,
        ownerLimit: ctx.sessions.quotaOf(principalId),
        totalLimit: ctx.options.maxSessions,
        // The session lives on: only its place in the fleet-wide count is lost (logged).
        onLost: (e) =>
          ctx.logger.warn('a legacy session no longer counts against the fleet-wide quota', thrownDetail(e)),
      });
    } catch (e) {
      ctx.logger.error('legacy session refused: the fleet-wide quota could not be checked', thrownDetail(e));
      return 'unavailable';
    }
    if (typeof taken !== 'string') return taken;
    const pool = taken === 'owner' ? SessionStore.poolOf(principalId) : 'server';
    // Another instance may take the slot just freed: a few attempts, then the newcomer is refused.
    if (attempt === ATTEMPTS) return { pool, retryAfterMs: Math.max(ctx.options.sessionEvictionMinIdleMs, 1000) };
    const refused = await ctx.sessions.makeFleetRoom(pool, principalId);
    if (refused) return refused;
  }
}
