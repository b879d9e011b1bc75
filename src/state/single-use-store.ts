/**
 * At-most-once redemption of requestState tokens (opt-in). A token's MAC or tag already stops
 * forgery; this stops a captured token from being replayed while it is still valid.
 */

export interface SingleUseStore {
  /**
   * Atomically record `tokenId` as used. Return true the first time, false if it was already
   * claimed. Keep the entry at least until `expiresAtMs` (the token is refused after that anyway).
   * A shared store (e.g. Redis `SET id 1 NX PXAT expiresAtMs`) makes this hold across instances.
   */
  claim(tokenId: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/** Per-process store. Correct for one instance only; sweeps expired ids as it goes. */
export class MemorySingleUseStore implements SingleUseStore {
  private readonly used = new Map<string, number>();
  private nextSweepAt = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly sweepIntervalMs = 10_000,
  ) {}

  get size(): number {
    return this.used.size;
  }

  claim(tokenId: string, expiresAtMs: number): boolean {
    const now = this.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    const until = this.used.get(tokenId);
    if (until !== undefined && until > now) return false;
    this.used.set(tokenId, expiresAtMs);
    return true;
  }

  private sweep(now: number): void {
    this.nextSweepAt = now + this.sweepIntervalMs;
    for (const [id, until] of this.used) if (until <= now) this.used.delete(id);
  }
}
