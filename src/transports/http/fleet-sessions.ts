/**
 * Legacy sessions counted across the fleet: with a shared lease counter (EndpointSettings.leases),
 * a session takes a lease in its owner's bucket (a principal's, or the anonymous one) and one in
 * the total bucket before it is created, renewed while it lives and released when it ends or is
 * evicted. The caps are the local ones (maxSessionsPerPrincipal / maxAnonymousSessions, maxSessions).
 */
import { thrownDetail } from '../../server/core/server-logger';
import { takeFleetSlot, type FleetSlot } from '../../state/fleet-slot';
import type { EndpointContext } from './endpoint-context';
import type { SessionRefusal } from './session-store';

/** The slot (none without a shared counter), the cap that refused, or 'unavailable' (the store failed). */
export async function takeSessionSlot(
  ctx: EndpointContext,
  principalId: string | undefined,
): Promise<FleetSlot | undefined | SessionRefusal | 'unavailable'> {
  const leases = ctx.server.settings.leases;
  if (!leases) return undefined;
  try {
    const taken = await takeFleetSlot(leases, {
      kind: 'session',
      principalId,
      ownerLimit: ctx.sessions.quotaOf(principalId),
      totalLimit: ctx.options.maxSessions,
      // The session lives on: only its place in the fleet-wide count is lost (logged).
      onLost: (e) =>
        ctx.logger.warn('a legacy session no longer counts against the fleet-wide quota', thrownDetail(e)),
    });
    if (taken === 'owner') return 'quota';
    if (taken === 'total') return 'pool';
    return taken;
  } catch (e) {
    ctx.logger.error('legacy session refused: the fleet-wide quota could not be checked', thrownDetail(e));
    return 'unavailable';
  }
}
