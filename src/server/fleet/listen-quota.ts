/**
 * Open `subscriptions/listen` streams: at most `max` in all, `maxPerPrincipal` per authenticated
 * principal, and `maxAnonymous` for all clients without a principal together (they cannot be told
 * apart, so they share one bucket and cannot take every stream from authenticated ones).
 */
import { ProtocolError } from '../../errors/protocol-error';

export interface ListenLimits {
  maxListenStreams: number;
  maxListenStreamsPerPrincipal: number;
  maxAnonymousListenStreams: number;
}

export class ListenQuota {
  private total = 0;
  private readonly perOwner = new Map<string, number>();

  constructor(private readonly limits: ListenLimits) {}

  /** Takes a slot for one stream and returns its release (idempotent); throws -32600 when none is left. */
  take(principalId: string | undefined): () => void {
    const owner = principalId ?? '';
    const held = this.perOwner.get(owner) ?? 0;
    const quota = listenQuotaOf(this.limits, principalId);
    if (held >= quota) throw listenRefusal(this.limits, principalId, 'owner');
    if (this.total >= this.limits.maxListenStreams) throw listenRefusal(this.limits, principalId, 'total');
    this.total++;
    this.perOwner.set(owner, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.perOwner.get(owner) ?? 1) - 1;
      if (left > 0) this.perOwner.set(owner, left);
      else this.perOwner.delete(owner);
    };
  }

  get open(): number {
    return this.total;
  }
}

/** The streams one owner may hold: a principal's share, or the anonymous bucket's. */
export function listenQuotaOf(limits: ListenLimits, principalId: string | undefined): number {
  return principalId === undefined ? limits.maxAnonymousListenStreams : limits.maxListenStreamsPerPrincipal;
}

/** The -32600 of a refused listen (here, or fleet-wide): the owner's share or the total is used. */
export function listenRefusal(
  limits: ListenLimits,
  principalId: string | undefined,
  which: 'owner' | 'total',
): ProtocolError {
  if (which === 'total') {
    return ProtocolError.invalidRequest(
      `subscriptions/listen: the server already has ${limits.maxListenStreams} open streams (maxListenStreams); try again later`,
    );
  }
  const who = principalId === undefined ? 'clients without a principal already hold' : 'this principal already holds';
  const option = principalId === undefined ? 'maxAnonymousListenStreams' : 'maxListenStreamsPerPrincipal';
  const quota = listenQuotaOf(limits, principalId);
  return ProtocolError.invalidRequest(`subscriptions/listen: ${who} ${quota} open streams (${option}); close one first`);
}
