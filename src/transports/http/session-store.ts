/**
 * Legacy sessions by id: CSPRNG ids of visible ASCII, bound to the principal that created them
 * (another principal gets the same 404 as an unknown id), a cap, a quota per principal inside it
 * (so one client cannot fill the pool), and idle eviction. Clients without a principal cannot be
 * told apart, so they share one anonymous bucket with its own quota.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore } from './event-store';
import { HttpSession } from './http-session';

export interface SessionLimits {
  maxSessions: number;
  /** Sessions one authenticated principal may hold. */
  maxSessionsPerPrincipal: number;
  /** Sessions all unauthenticated clients together may hold. */
  maxAnonymousSessions: number;
  idleTimeoutMs: number;
  /** Server-to-client requests one session may have waiting. */
  maxPendingAsks: number;
  /** Prepended to every id with a dot (`i1.<uuid>`), so a load balancer can route by instance. */
  idPrefix?: string;
}

/** Why a session could not be created: the whole pool, or this client's share of it. */
export type SessionRefusal = 'pool' | 'quota';

export class SessionStore {
  private readonly sessions = new Map<string, HttpSession>();
  /** Open sessions per principal id ('' for the anonymous bucket). */
  private readonly perOwner = new Map<string, number>();
  /** What each session holds elsewhere (its fleet-wide quota slot), given back when it ends. */
  private readonly held = new Map<string, { release(): void }>();
  /** Started with the first session, not at construction: an edge runtime forbids timers at import. */
  private sweeper?: ReturnType<typeof setInterval>;

  constructor(
    private readonly limits: SessionLimits,
    private readonly store: EventStore,
  ) {}

  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.evictIdle(), Math.min(Math.max(this.limits.idleTimeoutMs / 4, 250), 60_000));
    (this.sweeper as { unref?: () => void }).unref?.();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Whether a live session has this id (whoever holds it): a draining instance still serves it. */
  has(id: string): boolean {
    return this.sessions.has(id);
  }

  /** The quota that applies to a principal (the anonymous bucket when there is none). */
  quotaOf(principalId: string | undefined): number {
    return principalId === undefined ? this.limits.maxAnonymousSessions : this.limits.maxSessionsPerPrincipal;
  }

  /**
   * A new session, or why not: the pool is full (503) or this client's quota is used (429).
   * `held` (a fleet-wide slot) is released when the session ends, or at once when it is refused.
   */
  create(principalId: string | undefined, held?: { release(): void }): HttpSession | SessionRefusal {
    const owner = principalId ?? '';
    const full = () =>
      (this.perOwner.get(owner) ?? 0) >= this.quotaOf(principalId) || this.sessions.size >= this.limits.maxSessions;
    if (full()) this.evictIdle();
    const refused: SessionRefusal | undefined =
      (this.perOwner.get(owner) ?? 0) >= this.quotaOf(principalId)
        ? 'quota'
        : this.sessions.size >= this.limits.maxSessions
          ? 'pool'
          : undefined;
    if (refused) {
      held?.release();
      return refused;
    }
    // randomUUID: 122 random bits from the CSPRNG, only [0-9a-f-] (within 0x21-0x7E).
    const id = this.limits.idPrefix === undefined ? randomUUID() : `${this.limits.idPrefix}.${randomUUID()}`;
    const session = new HttpSession(id, principalId, this.store, this.limits.maxPendingAsks);
    this.startSweeping();
    this.sessions.set(session.id, session);
    if (held) this.held.set(session.id, held);
    this.perOwner.set(owner, (this.perOwner.get(owner) ?? 0) + 1);
    return session;
  }

  /** The session for an id and principal; undefined for unknown, terminated, evicted or foreign. */
  get(id: string, principalId: string | undefined): HttpSession | undefined {
    const s = this.sessions.get(id);
    if (!s || s.principalId !== principalId) return undefined;
    s.touch();
    return s;
  }

  delete(id: string, reason = 'session terminated'): void {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    this.held.get(id)?.release();
    this.held.delete(id);
    const owner = s.principalId ?? '';
    const left = (this.perOwner.get(owner) ?? 1) - 1;
    if (left > 0) this.perOwner.set(owner, left);
    else this.perOwner.delete(owner);
    s.close(reason);
  }

  evictIdle(now = Date.now()): number {
    let evicted = 0;
    for (const [id, s] of this.sessions) {
      if (s.idleSince(now) >= this.limits.idleTimeoutMs) {
        this.delete(id, 'session expired');
        evicted++;
      }
    }
    return evicted;
  }

  closeAll(reason: string): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const id of [...this.sessions.keys()]) this.delete(id, reason);
  }

  all(): IterableIterator<HttpSession> {
    return this.sessions.values();
  }
}
