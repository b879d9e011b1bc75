/**
 * The budget of legacy server-to-client requests waiting for the client's reply (`ctx.elicit`,
 * sampling, roots on 2025-11-25 and earlier). While one waits, its request is held — and a handler
 * may put client-supplied data in it (a tool asking the client's model about its arguments) — for
 * as long as `legacyAskTimeoutMs`. So asks are bounded by count per session and by the size of
 * their JSON per session, per principal (all clients without one together count as one) and in
 * all; one more is refused before it is sent, naming the budget, and the session goes on.
 */
export interface PendingAskLimits {
  /** Asks one session may have waiting. */
  readonly maxPendingAsksPerSession: number;
  /** Bytes (of their JSON) of one session's waiting asks. */
  readonly maxPendingAskBytesPerSession: number;
  /** Bytes of one principal's waiting asks over all its sessions. */
  readonly maxPendingAskBytesPerPrincipal: number;
  /** Bytes of every session's waiting asks. */
  readonly maxPendingAskBytes: number;
}

const ANONYMOUS = '\u0000anonymous';

/** One server's budget, shared by every legacy session of every transport it serves. */
export class PendingAskBudget {
  private readonly perPrincipal = new Map<string, number>();
  private total = 0;

  constructor(readonly limits: PendingAskLimits) {}

  /** A new session's share of the budget, counted against `principalId`'s (undefined: anonymous). */
  session(principalId?: string): SessionAsks {
    return new SessionAsks(this, principalId ?? ANONYMOUS);
  }

  /** Bytes of waiting asks: of one principal (`null`: anonymous) or, with no argument, of all. */
  held(principalId?: string | null): number {
    if (principalId === undefined) return this.total;
    return this.perPrincipal.get(principalId ?? ANONYMOUS) ?? 0;
  }

  /** @internal Takes `bytes` for `owner`; the option that refuses them, if one does. */
  take(owner: string, bytes: number): 'maxPendingAskBytesPerPrincipal' | 'maxPendingAskBytes' | undefined {
    const held = this.perPrincipal.get(owner) ?? 0;
    if (held + bytes > this.limits.maxPendingAskBytesPerPrincipal) return 'maxPendingAskBytesPerPrincipal';
    if (this.total + bytes > this.limits.maxPendingAskBytes) return 'maxPendingAskBytes';
    this.perPrincipal.set(owner, held + bytes);
    this.total += bytes;
    return undefined;
  }

  /** @internal */
  give(owner: string, bytes: number): void {
    const left = (this.perPrincipal.get(owner) ?? 0) - bytes;
    if (left > 0) this.perPrincipal.set(owner, left);
    else this.perPrincipal.delete(owner);
    this.total -= bytes;
  }
}

/** One session's waiting asks: their count and bytes, and its principal's share. */
export class SessionAsks {
  private count = 0;
  private bytes = 0;

  constructor(
    private readonly budget: PendingAskBudget,
    private readonly owner: string,
  ) {}

  /**
   * Room for one more ask of `bytes` (its JSON's length): undefined when taken (give it back with
   * `release` when the ask ends), else why not, naming the option — nothing is taken then.
   */
  take(method: string, bytes: number): string | undefined {
    const l = this.budget.limits;
    if (this.count >= l.maxPendingAsksPerSession) {
      return `${l.maxPendingAsksPerSession} requests to the client are already waiting for replies on this session (maxPendingAsksPerSession); ${method} was not sent.`;
    }
    if (this.bytes + bytes > l.maxPendingAskBytesPerSession) {
      return `${method} (${bytes} bytes) would take this session's requests waiting for the client past maxPendingAskBytesPerSession (${l.maxPendingAskBytesPerSession} bytes, ${this.bytes} held); it was not sent.`;
    }
    const refused = this.budget.take(this.owner, bytes);
    if (refused) {
      const whose = refused === 'maxPendingAskBytes' ? 'the server' : 'this caller';
      return `${method} (${bytes} bytes) would take the requests waiting for ${whose}'s clients past ${refused} (${l[refused]} bytes); it was not sent.`;
    }
    this.count++;
    this.bytes += bytes;
    return undefined;
  }

  /** An ask taken with `take` ended (answered, timed out, cancelled, withdrawn). */
  release(bytes: number): void {
    this.count--;
    this.bytes -= bytes;
    this.budget.give(this.owner, bytes);
  }

  get size(): number {
    return this.count;
  }
}

/** No budget but the count (a unit's own OutboundRequests): the limits far above any use. */
export function unlimitedAsks(maxPendingAsksPerSession = Number.POSITIVE_INFINITY): SessionAsks {
  return new PendingAskBudget({
    maxPendingAsksPerSession,
    maxPendingAskBytesPerSession: Number.POSITIVE_INFINITY,
    maxPendingAskBytesPerPrincipal: Number.POSITIVE_INFINITY,
    maxPendingAskBytes: Number.POSITIVE_INFINITY,
  }).session();
}
