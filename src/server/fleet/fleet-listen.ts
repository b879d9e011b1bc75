/**
 * A listen stream counted across the fleet: opened at once under the local caps (ListenQuota),
 * then a lease per owner bucket and one in the total bucket of the shared LeaseCounter. When the
 * fleet's caps are full, or the store cannot answer (or a renewal fails), the stream is ended
 * with the error a local refusal (or an unavailable store) gives.
 */
import type { LeaseCounter } from '../../state/lease-counter';
import { takeFleetSlot, type FleetSlot } from '../../state/fleet-slot';
import { listenQuotaOf, listenRefusal, type ListenLimits } from './listen-quota';

/** Starts counting one stream; `end(error)` ends it; returns the release (idempotent). */
export function holdFleetListen(
  leases: LeaseCounter,
  limits: ListenLimits,
  principalId: string | undefined,
  end: (error: unknown) => void,
): () => void {
  let slot: FleetSlot | undefined;
  let released = false;
  takeFleetSlot(leases, {
    kind: 'listen',
    principalId,
    ownerLimit: listenQuotaOf(limits, principalId),
    totalLimit: limits.maxListenStreams,
    onLost: end,
  }).then(
    (taken) => {
      if (typeof taken === 'string') return end(listenRefusal(limits, principalId, taken));
      if (released) return taken.release();
      slot = taken;
    },
    (e: unknown) => end(e),
  );
  return () => {
    released = true;
    slot?.release();
  };
}
