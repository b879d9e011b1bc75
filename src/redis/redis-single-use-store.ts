/**
 * SingleUseStore on Redis: `SET <prefix>used:<tokenId> 1 NX PXAT <expiresAtMs>`. The first SET wins
 * across the fleet; the key goes when the token could no longer be redeemed anyway.
 */
import type { SingleUseStore } from '../state/single-use-store';
import type { RedisConnection } from './connection';

export class RedisSingleUseStore implements SingleUseStore {
  constructor(private readonly redis: RedisConnection) {}

  async claim(tokenId: string, expiresAtMs: number): Promise<boolean> {
    // PXAT must be positive; an expiry already past still records the id briefly (and is refused upstream).
    const at = Math.max(Math.ceil(expiresAtMs), Date.now() + 1_000);
    const reply = await this.redis.command(['SET', this.redis.key('used', tokenId), '1', 'NX', 'PXAT', String(at)]);
    return reply === 'OK';
  }
}
