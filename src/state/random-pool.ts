/**
 * Small random values (token ids, IVs, salts, flow ids) cut from a pre-filled CSPRNG buffer: one
 * randomFillSync per 4 KiB instead of one OpenSSL call per token. Every byte is used once.
 */
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;

class Pool {
  readonly bytes = Buffer.allocUnsafe(POOL_BYTES);
  private offset = POOL_BYTES;

  /** Where `n` (≤ POOL_BYTES) unused bytes start in `bytes`. */
  take(n: number): number {
    if (this.offset + n > POOL_BYTES) {
      randomFillSync(this.bytes);
      this.offset = 0;
    }
    const at = this.offset;
    this.offset += n;
    return at;
  }
}

export function createRandomPool(): (n: number) => Buffer {
  const pool = new Pool();
  return (n: number) => {
    if (n > POOL_BYTES) return randomFillSync(Buffer.allocUnsafe(n));
    const at = pool.take(n);
    // A copy, so a caller keeping the bytes never sees them overwritten by a later refill.
    const out = Buffer.allocUnsafe(n);
    pool.bytes.copy(out, 0, at, at + n);
    return out;
  };
}

/** Random ids as base64url text of `n` (≤ 4096) bytes, encoded straight from the pool: no buffer per id. */
export function createRandomIds(): (n: number) => string {
  const pool = new Pool();
  return (n: number) => {
    const at = pool.take(n);
    return pool.bytes.toString('base64url', at, at + n);
  };
}
