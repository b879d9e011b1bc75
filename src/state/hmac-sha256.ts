/**
 * HMAC-SHA256 (RFC 2104) over the one-shot `crypto.hash`: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)).
 * A `createHmac` object per token costs more than the hashing itself for a 2 KB message; here
 * the caller leaves the first BLOCK bytes of its own buffer free and the padded key goes there,
 * so the message is neither copied nor fed through a stream. The result equals createHmac's
 * (test/unit/state/hmac-sha256.test.ts).
 */
import { createHash, hash } from 'node:crypto';

/** SHA-256 block size: the padded key fills exactly one block. */
export const HMAC_BLOCK = 64;
const DIGEST_BYTES = 32;

export class HmacSha256 {
  private readonly innerPad: Buffer;
  /** opad key ‖ inner digest; reused, since sign() is synchronous. */
  private readonly outer: Buffer;

  constructor(key: Buffer) {
    const block = Buffer.alloc(HMAC_BLOCK);
    (key.length > HMAC_BLOCK ? createHash('sha256').update(key).digest() : key).copy(block);
    this.innerPad = Buffer.allocUnsafe(HMAC_BLOCK);
    this.outer = Buffer.allocUnsafe(HMAC_BLOCK + DIGEST_BYTES);
    for (let i = 0; i < HMAC_BLOCK; i++) {
      this.innerPad[i] = block[i]! ^ 0x36;
      this.outer[i] = block[i]! ^ 0x5c;
    }
    block.fill(0);
  }

  /** HMAC of `padded` minus its first HMAC_BLOCK bytes, which this uses for the padded key and leaves zeroed. */
  sign(padded: Buffer): Buffer {
    const mac = Buffer.allocUnsafe(DIGEST_BYTES);
    this.signInto(padded, mac, 0);
    return mac;
  }

  /**
   * `sign`, with the MAC written into `out` at `at`. The digests come back as 'binary' (latin1) text (one byte
   * per character) and are written where they go: Node 20's `hash(…, 'buffer')` costs 2.4× its
   * string output for a token-sized message, and this takes two.
   */
  signInto(padded: Buffer, out: Buffer, at: number): void {
    this.innerPad.copy(padded, 0);
    this.outer.write(hash('sha256', padded, 'binary'), HMAC_BLOCK, 'latin1');
    // The padded key is as good as the key: it must not linger in a pooled buffer after use.
    padded.fill(0, 0, HMAC_BLOCK);
    out.write(hash('sha256', this.outer, 'binary'), at, 'latin1');
  }

  /** Never print key material. */
  toJSON(): string {
    return 'HmacSha256';
  }
}
