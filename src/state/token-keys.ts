/**
 * The AES-GCM keys of `v1e.` tokens: K_s = HKDF-Expand(encKey, info ‖ salt), with the 16-byte
 * salt carried in the token. A salt seals at most MAX_SEALS_PER_SALT tokens, each with its own
 * random 96-bit IV, then a fresh random salt takes over. So no AES key encrypts more than 2^16
 * times, far under NIST SP 800-38D's 2^32 limit for random IVs (an IV collision within one key
 * has probability below 2^-65), however many tokens the process mints. Deriving once per salt
 * instead of once per token takes an HMAC off every seal and, through the cache, every open.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type { DerivedStateKey } from './key-ring';

export const SALT_BYTES = 16;
/** Tokens sealed under one salt (one derived AES key) before a fresh salt is drawn. */
export const MAX_SEALS_PER_SALT = 2 ** 16;
/** Derived keys remembered for opening; a full cache is cleared, so it costs recomputation, never memory. */
const MAX_OPEN_KEYS = 4096;

const TOKEN_KEY_INFO = Buffer.from('omc/request-state/v1e/token-key');
const EXPAND_BLOCK_1 = Buffer.from([1]);

/** Derived keys are KeyObjects: made once per salt, and a cipher takes one without re-reading key bytes. */
export interface SealingKey {
  readonly salt: Buffer;
  readonly aesKey: KeyObject;
}

export interface OpeningKey {
  readonly aesKey: KeyObject;
  readonly remember: () => void;
}

export class TokenKeys {
  private sealing: { ring: DerivedStateKey; key: SealingKey; left: number; open: OpeningKey } | undefined;
  private readonly opened = new Map<string, KeyObject>();

  constructor(private readonly random: (n: number) => Buffer) {}

  /** The key and salt the next token is sealed with. */
  forSeal(ring: DerivedStateKey): SealingKey {
    let s = this.sealing;
    if (s === undefined || s.ring !== ring || s.left === 0) {
      const salt = this.random(SALT_BYTES);
      const aesKey = deriveTokenKey(ring, salt);
      s = this.sealing = { ring, key: { salt, aesKey }, left: MAX_SEALS_PER_SALT, open: { aesKey, remember: noop } };
    }
    s.left--;
    return s.key;
  }

  /** The key for opening a token with this salt; `remember` it only once the token authenticated. */
  forOpen(ring: DerivedStateKey, salt: Buffer): OpeningKey {
    // Most tokens come back to the process that sealed them, under the salt still in use.
    const s = this.sealing;
    if (s !== undefined && s.ring === ring && s.key.salt.equals(salt)) return s.open;
    const id = ring.kid.toString('latin1') + salt.toString('latin1');
    const known = this.opened.get(id);
    if (known !== undefined) return { aesKey: known, remember: noop };
    const aesKey = deriveTokenKey(ring, salt);
    return {
      aesKey,
      // Only authenticated salts enter: forged tokens cannot churn the cache.
      remember: () => {
        if (this.opened.size >= MAX_OPEN_KEYS) this.opened.clear();
        this.opened.set(id, aesKey);
      },
    };
  }
}

function noop(): void {}

/**
 * HKDF-Expand(encKey, info ‖ salt, 32), which for one block is HMAC(encKey, info ‖ salt ‖ 0x01).
 * encKey is already an HKDF output (a pseudorandom key), so the Extract step adds nothing.
 */
function deriveTokenKey(ring: DerivedStateKey, salt: Buffer): KeyObject {
  const bytes = createHmac('sha256', ring.encKey).update(TOKEN_KEY_INFO).update(salt).update(EXPAND_BLOCK_1).digest();
  const key = createSecretKey(bytes);
  bytes.fill(0); // the KeyObject holds its own copy
  return key;
}
