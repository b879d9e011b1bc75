/**
 * Verified access tokens kept a short while, so a client that sends the same token on every
 * request pays one verification (a signature check, or an introspection round trip) per period.
 * Keyed by the token's SHA-256, never the token; an entry never outlives the token's `exp`; at
 * `maxEntries` the oldest goes first. Seconds 0 turns it off.
 */
import { createHash } from 'node:crypto';
import type { VerifiedToken } from './token-verifier';

interface Cached {
  readonly token: VerifiedToken;
  readonly untilMs: number;
}

export class VerifiedTokenCache {
  private readonly entries = new Map<string, Cached>();

  constructor(
    private readonly seconds: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key of a token, or undefined when the cache is off. */
  keyOf(token: string): string | undefined {
    return this.seconds > 0 ? createHash('sha256').update(token).digest('base64url') : undefined;
  }

  get(key: string | undefined): VerifiedToken | undefined {
    if (key === undefined) return undefined;
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.untilMs > this.now()) return hit.token;
    this.entries.delete(key);
    return undefined;
  }

  /** `exp` in seconds (JWT / RFC 7662), when the token has one. */
  remember(key: string | undefined, token: VerifiedToken, exp: unknown): void {
    if (key === undefined) return;
    let untilMs = this.now() + this.seconds * 1000;
    if (typeof exp === 'number') untilMs = Math.min(untilMs, exp * 1000);
    if (untilMs <= this.now()) return;
    if (this.entries.size >= this.maxEntries) {
      // Drop the oldest entry (Map keeps insertion order).
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { token, untilMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
