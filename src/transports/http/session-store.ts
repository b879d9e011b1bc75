/**
 * Legacy sessions by id: CSPRNG ids of visible ASCII, bound to the principal that created them
 * (another principal gets the same 404 as an unknown id), a cap, a quota per principal inside it
 * (so one client cannot fill the pool), and idle eviction. Clients without a principal cannot be
 * told apart, so they share one anonymous bucket with its own quota.
 *
 * A full pool makes room: a new session takes the place of the least recently used one that has
 * been idle (nothing in flight, no open stream) for at least `evictableAfterMs`. Clients that never
 * end their sessions (CLIs, crashed processes) thus never lock newcomers out; a session in use is
 * never taken. Only when none is old enough is the newcomer refused, told when to come back.
 */
import { randomUUID } from 'node:crypto';
import type { PendingAskBudget } from '../../server/legacy/pending-asks';
import type { EventStore } from './event-store';
import { HttpSession } from './http-session';

export interface SessionLimits {
  maxSessions: number;
  /** Sessions one authenticated principal may hold. */
  maxSessionsPerPrincipal: number;
  /** Sessions all unauthenticated clients together may hold. */
  maxAnonymousSessions: number;
  idleTimeoutMs: number;
  /** A full pool may evict a session idle at least this long (the least recently used first). */
  evictableAfterMs: number;
  /** The server's budget of server-to-client requests waiting for replies (each session takes a share). */
  pendingAsks?: PendingAskBudget;
  /** Prepended to every id with a dot (`i1.<uuid>`), so a load balancer can route by instance. */
  idPrefix?: string;
  /** Told once per session evicted to make room (logging, telemetry). */
  onEvicted?(eviction: SessionEviction): void;
}

/** Which pool was full: the anonymous bucket, one principal's share, or the whole server's. */
export type SessionPool = 'anonymous' | 'principal' | 'server';

/** Why a session could not be created, and when one of the pool's sessions may be evictable. */
export interface SessionRefusal {
  readonly pool: SessionPool;
  readonly retryAfterMs: number;
}

export interface SessionEviction {
  readonly pool: SessionPool;
  readonly sessionId: string;
  readonly principalId?: string;
  readonly ageMs: number;
  readonly idleMs: number;
}

export class SessionStore {
  private readonly sessions = new Map<string, HttpSession>();
  /** Open sessions per principal id ('' for the anonymous bucket). */
  private readonly perOwner = new Map<string, number>();
  /** What each session holds elsewhere (its fleet-wide quota slot), given back when it ends. */
  private readonly held = new Map<string, { release(): unknown }>();
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

  /** The pool that holds a principal's sessions inside the server's. */
  static poolOf(principalId: string | undefined): SessionPool {
    return principalId === undefined ? 'anonymous' : 'principal';
  }

  /**
   * A new session, or the refusal of a full pool that had nothing to evict. `held` (a fleet-wide
   * slot) is released when the session ends, or at once when it is refused.
   */
  create(principalId: string | undefined, held?: { release(): unknown }): HttpSession | SessionRefusal {
    const owner = principalId ?? '';
    // The client's share first: room made there is room in the server's pool too.
    const refused =
      this.makeRoom(SessionStore.poolOf(principalId), principalId) ?? this.makeRoom('server', principalId);
    if (refused) {
      void held?.release();
      return refused;
    }
    // randomUUID: 122 random bits from the CSPRNG, only [0-9a-f-] (within 0x21-0x7E).
    const id = this.limits.idPrefix === undefined ? randomUUID() : `${this.limits.idPrefix}.${randomUUID()}`;
    const session = new HttpSession(id, principalId, this.store, this.limits.pendingAsks?.session(principalId));
    this.startSweeping();
    this.sessions.set(session.id, session);
    if (held) this.held.set(session.id, held);
    this.perOwner.set(owner, (this.perOwner.get(owner) ?? 0) + 1);
    return session;
  }

  /**
   * Evicts the pool's least recently used session idle at least `evictableAfterMs` (a session of
   * `principalId`'s bucket, or any for the server's pool) when the pool is full: undefined when
   * there is room now, else the refusal.
   */
  makeRoom(pool: SessionPool, principalId: string | undefined, now = Date.now()): SessionRefusal | undefined {
    if (!this.isFull(pool, principalId)) return undefined;
    if (this.evictIdle(now) && !this.isFull(pool, principalId)) return undefined;
    const victim = this.victimOf(pool, principalId, now);
    if (!(victim instanceof HttpSession)) return victim;
    void this.evict(victim, pool, now);
    return undefined;
  }

  /**
   * The fleet-wide pool is full (the local one may not be): evicts this instance's least recently
   * used evictable session of the pool and resolves once its fleet-wide slot is given back.
   */
  async makeFleetRoom(pool: SessionPool, principalId: string | undefined): Promise<SessionRefusal | undefined> {
    const now = Date.now();
    const victim = this.victimOf(pool, principalId, now);
    if (!(victim instanceof HttpSession)) return victim;
    await this.evict(victim, pool, now);
    return undefined;
  }

  /** The least recently used evictable session of the pool, or when one may be. */
  private victimOf(pool: SessionPool, principalId: string | undefined, now: number): HttpSession | SessionRefusal {
    const min = this.limits.evictableAfterMs;
    let victim: HttpSession | undefined;
    let soonest = Number.POSITIVE_INFINITY;
    for (const s of this.sessions.values()) {
      if ((pool !== 'server' && s.principalId !== principalId) || s.busy) continue;
      const idle = now - s.lastSeen;
      if (idle < min) soonest = Math.min(soonest, min - idle);
      else if (!victim || s.lastSeen < victim.lastSeen) victim = s;
    }
    // Nothing idle at all: every session is in use; one may end any time, so ask again after the minimum age.
    return victim ?? { pool, retryAfterMs: Number.isFinite(soonest) ? soonest : Math.max(min, 1000) };
  }

  /** Evicts one session to make room, telling `onEvicted`; resolves when its fleet-wide slot is back. */
  private async evict(s: HttpSession, pool: SessionPool, now: number): Promise<void> {
    const slot = this.held.get(s.id);
    this.held.delete(s.id);
    this.delete(s.id, 'session evicted to make room for a new one');
    this.limits.onEvicted?.({
      pool,
      sessionId: s.id,
      principalId: s.principalId,
      ageMs: now - s.createdAt,
      idleMs: now - s.lastSeen,
    });
    await slot?.release();
  }

  private isFull(pool: SessionPool, principalId: string | undefined): boolean {
    if (pool === 'server') return this.sessions.size >= this.limits.maxSessions;
    return (this.perOwner.get(principalId ?? '') ?? 0) >= this.quotaOf(principalId);
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
    void this.held.get(id)?.release();
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
