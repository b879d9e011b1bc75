/**
 * The versioned wire envelope around the claims bytes. Fixed algorithms, no header parsed
 * before authentication except the mode prefix and the public key id.
 *
 *   v1.  b64u( kid4 ‖ claims ‖ HMAC-SHA256(macKey, "v1." ‖ kid ‖ claims) )      — signed, readable
 *   v1e. b64u( kid4 ‖ salt16 ‖ iv12 ‖ AES-256-GCM(K_t, claims) ‖ tag16 )          — encrypted
 *        with K_t = HKDF(encKey, salt, per-token) and AAD = "v1e." ‖ kid ‖ salt ‖ iv.
 *
 * The per-token key means each AES key encrypts once, so the NIST limit of 2^32 random-IV
 * encryptions per key does not apply however many tokens are minted.
 */
import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { base64UrlLength, decodeBase64Url, encodeBase64Url } from './base64url';
import { KID_BYTES, type DerivedStateKey, type KeyRing } from './key-ring';
import { StateRefusal } from './state-refusal';

export type EnvelopeMode = 'hmac' | 'aead';

export const ENVELOPE_PREFIX: Readonly<Record<EnvelopeMode, string>> = { hmac: 'v1.', aead: 'v1e.' };

const MAC_BYTES = 32;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const GCM_TAG_BYTES = 16;
const TOKEN_KEY_INFO = 'omc/request-state/v1e/token-key';

/** Bytes the envelope adds around the claims. */
export function envelopeOverhead(mode: EnvelopeMode): number {
  return mode === 'hmac' ? KID_BYTES + MAC_BYTES : KID_BYTES + SALT_BYTES + IV_BYTES + GCM_TAG_BYTES;
}

/** Exact token length for claims of `claimsBytes` bytes, known before any crypto runs. */
export function tokenLength(mode: EnvelopeMode, claimsBytes: number): number {
  return ENVELOPE_PREFIX[mode].length + base64UrlLength(envelopeOverhead(mode) + claimsBytes);
}

export function sealEnvelope(
  mode: EnvelopeMode,
  key: DerivedStateKey,
  claims: Buffer,
  random: (n: number) => Buffer,
): string {
  const prefix = ENVELOPE_PREFIX[mode];
  if (mode === 'hmac') {
    const mac = createHmac('sha256', key.macKey).update(prefix).update(key.kid).update(claims).digest();
    return prefix + encodeBase64Url(Buffer.concat([key.kid, claims, mac]));
  }
  const salt = random(SALT_BYTES);
  const iv = random(IV_BYTES);
  const header = Buffer.concat([key.kid, salt, iv]);
  const cipher = createCipheriv('aes-256-gcm', tokenKey(key, salt), iv, { authTagLength: GCM_TAG_BYTES });
  cipher.setAAD(Buffer.concat([Buffer.from(prefix), header]));
  const ciphertext = Buffer.concat([cipher.update(claims), cipher.final()]);
  return prefix + encodeBase64Url(Buffer.concat([header, ciphertext, cipher.getAuthTag()]));
}

export interface OpenedEnvelope {
  /** The ring key that authenticated the token (its binding key computes the principal tag). */
  key: DerivedStateKey;
  claimsBytes: Buffer;
}

/** The authenticated claims bytes of `token`, or a StateRefusal. The caller bounded its length. */
export function openEnvelope(token: string, mode: EnvelopeMode, ring: KeyRing): OpenedEnvelope {
  const dot = token.indexOf('.');
  const prefix = dot < 0 ? '' : token.slice(0, dot + 1);
  if (prefix !== ENVELOPE_PREFIX.hmac && prefix !== ENVELOPE_PREFIX.aead)
    throw new StateRefusal('malformed', 'unknown envelope prefix');
  if (prefix !== ENVELOPE_PREFIX[mode]) throw new StateRefusal('wrong_mode', `expected ${ENVELOPE_PREFIX[mode]} token`);
  const bytes = decodeBase64Url(token.slice(dot + 1));
  if (bytes === undefined) throw new StateRefusal('malformed', 'not canonical base64url');
  // At least one byte of claims: also guarantees every slice below has its full length.
  if (bytes.length <= envelopeOverhead(mode)) throw new StateRefusal('malformed', 'token too short');
  const key = ring.find(bytes.subarray(0, KID_BYTES));
  if (key === undefined) throw new StateRefusal('unknown_key');
  return { key, claimsBytes: mode === 'hmac' ? verifyMac(prefix, key, bytes) : decrypt(prefix, key, bytes) };
}

function verifyMac(prefix: string, key: DerivedStateKey, bytes: Buffer): Buffer {
  const claims = bytes.subarray(KID_BYTES, bytes.length - MAC_BYTES);
  const given = bytes.subarray(bytes.length - MAC_BYTES);
  const expected = createHmac('sha256', key.macKey).update(prefix).update(key.kid).update(claims).digest();
  if (!timingSafeEqual(expected, given)) throw new StateRefusal('bad_mac');
  return claims;
}

function decrypt(prefix: string, key: DerivedStateKey, bytes: Buffer): Buffer {
  const headerEnd = KID_BYTES + SALT_BYTES + IV_BYTES;
  const salt = bytes.subarray(KID_BYTES, KID_BYTES + SALT_BYTES);
  const iv = bytes.subarray(KID_BYTES + SALT_BYTES, headerEnd);
  const tag = bytes.subarray(bytes.length - GCM_TAG_BYTES);
  try {
    // authTagLength pins the tag to 16 bytes: without it Node 20 accepts a 4-byte tag.
    const decipher = createDecipheriv('aes-256-gcm', tokenKey(key, salt), iv, { authTagLength: GCM_TAG_BYTES });
    decipher.setAAD(Buffer.concat([Buffer.from(prefix), bytes.subarray(0, headerEnd)]));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(bytes.subarray(headerEnd, bytes.length - GCM_TAG_BYTES)), decipher.final()]);
  } catch {
    throw new StateRefusal('decrypt_failed');
  }
}

/**
 * K_t = HKDF-Expand(encKey, info ‖ salt, 32), which for one block is HMAC(encKey, info ‖ salt ‖ 0x01).
 * encKey is already an HKDF output (a pseudorandom key), so the Extract step adds nothing; doing
 * the one HMAC directly costs a quarter of hkdfSync on this hot path.
 */
const TOKEN_KEY_INFO_BYTES = Buffer.from(TOKEN_KEY_INFO);
const EXPAND_BLOCK_1 = Buffer.from([1]);
function tokenKey(key: DerivedStateKey, salt: Buffer): Buffer {
  return createHmac('sha256', key.encKey).update(TOKEN_KEY_INFO_BYTES).update(salt).update(EXPAND_BLOCK_1).digest();
}
