/**
 * Small random values (token ids, IVs, salts) cut from a pre-filled CSPRNG buffer: one
 * randomFillSync per 4 KiB instead of one OpenSSL call per token. Every byte is used once.
 */
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;

export function createRandomPool(): (n: number) => Buffer {
  const pool = Buffer.allocUnsafe(POOL_BYTES);
  let offset = POOL_BYTES;
  return (n: number) => {
    if (n > POOL_BYTES) return randomFillSync(Buffer.allocUnsafe(n));
    if (offset + n > POOL_BYTES) {
      randomFillSync(pool);
      offset = 0;
    }
    // A copy, so a caller keeping the bytes never sees them overwritten by a later refill.
    const out = Buffer.from(pool.subarray(offset, offset + n));
    offset += n;
    return out;
  };
}
