/**
 * Legacy sessions by id: CSPRNG ids of visible ASCII, bound to the principal that created them
 * (another principal gets the same 404 as an unknown id), a cap, and idle eviction.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore } from './event-store';
import { HttpSession } from './http-session';

export class SessionStore {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly maxSessions: number,
    private readonly idleTimeoutMs: number,
    private readonly store: EventStore,
  ) {
    this.sweeper = setInterval(() => this.evictIdle(), Math.min(Math.max(idleTimeoutMs / 4, 250), 60_000));
    this.sweeper.unref?.();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** A new session, or undefined when the cap is reached (the caller answers 503). */
  create(principalId: string | undefined): HttpSession | undefined {
    if (this.sessions.size >= this.maxSessions) this.evictIdle();
    if (this.sessions.size >= this.maxSessions) return undefined;
    // randomUUID: 122 random bits from the CSPRNG, only [0-9a-f-] (within 0x21-0x7E).
    const session = new HttpSession(randomUUID(), principalId, this.store);
    this.sessions.set(session.id, session);
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
    s.close(reason);
  }

  evictIdle(now = Date.now()): number {
    let evicted = 0;
    for (const [id, s] of this.sessions) {
      if (s.idleSince(now) >= this.idleTimeoutMs) {
        this.delete(id, 'session expired');
        evicted++;
      }
    }
    return evicted;
  }

  closeAll(reason: string): void {
    clearInterval(this.sweeper);
    for (const id of [...this.sessions.keys()]) this.delete(id, reason);
  }

  all(): IterableIterator<HttpSession> {
    return this.sessions.values();
  }
}
