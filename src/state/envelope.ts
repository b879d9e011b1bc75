/**
 * The versioned wire envelope around the claims bytes. Fixed algorithms, no header parsed
 * before authentication except the mode prefix and the public key id.
 *
 *   v1.  b64u( kid4 ‖ claims ‖ HMAC-SHA256(macKey, "v1." ‖ kid ‖ claims) )      — signed, readable
 *   v1e. b64u( kid4 ‖ salt16 ‖ iv12 ‖ AES-256-GCM(K_s, claims) ‖ tag16 )          — encrypted
 *        with K_s = HKDF(encKey, salt) and AAD = "v1e." ‖ kid ‖ salt ‖ iv.
 *
 * A salt (so one AES key) seals at most 2^16 tokens (token-keys.ts), so the NIST limit of 2^32
 * random-IV encryptions per key is never approached however many tokens are minted.
 */
import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { base64UrlLength, decodeBase64Url, encodeBase64Url } from './base64url';
import { KID_BYTES, type DerivedStateKey, type KeyRing } from './key-ring';
import { StateRefusal } from './state-refusal';
import { SALT_BYTES, type TokenKeys } from './token-keys';

export type EnvelopeMode = 'hmac' | 'aead';

export const ENVELOPE_PREFIX: Readonly<Record<EnvelopeMode, string>> = { hmac: 'v1.', aead: 'v1e.' };
const AEAD_PREFIX_BYTES = Buffer.from(ENVELOPE_PREFIX.aead);

const MAC_BYTES = 32;
const IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

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
  tokenKeys: TokenKeys,
): string {
  const prefix = ENVELOPE_PREFIX[mode];
  if (mode === 'hmac') {
    const mac = createHmac('sha256', key.macKey).update(prefix).update(key.kid).update(claims).digest();
    return prefix + encodeBase64Url(Buffer.concat([key.kid, claims, mac]));
  }
  const { salt, aesKey } = tokenKeys.forSeal(key);
  const iv = random(IV_BYTES);
  const header = Buffer.concat([key.kid, salt, iv]);
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv, { authTagLength: GCM_TAG_BYTES });
  cipher.setAAD(Buffer.concat([AEAD_PREFIX_BYTES, header]));
  const ciphertext = Buffer.concat([cipher.update(claims), cipher.final()]);
  return prefix + encodeBase64Url(Buffer.concat([header, ciphertext, cipher.getAuthTag()]));
}

export interface OpenedEnvelope {
  /** The ring key that authenticated the token (its binding key computes the principal tag). */
  key: DerivedStateKey;
  claimsBytes: Buffer;
}

/** The authenticated claims bytes of `token`, or a StateRefusal. The caller bounded its length. */
export function openEnvelope(token: string, mode: EnvelopeMode, ring: KeyRing, tokenKeys: TokenKeys): OpenedEnvelope {
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
  return { key, claimsBytes: mode === 'hmac' ? verifyMac(prefix, key, bytes) : decrypt(key, bytes, tokenKeys) };
}

function verifyMac(prefix: string, key: DerivedStateKey, bytes: Buffer): Buffer {
  const claims = bytes.subarray(KID_BYTES, bytes.length - MAC_BYTES);
  const given = bytes.subarray(bytes.length - MAC_BYTES);
  const expected = createHmac('sha256', key.macKey).update(prefix).update(key.kid).update(claims).digest();
  if (!timingSafeEqual(expected, given)) throw new StateRefusal('bad_mac');
  return claims;
}

function decrypt(key: DerivedStateKey, bytes: Buffer, tokenKeys: TokenKeys): Buffer {
  const headerEnd = KID_BYTES + SALT_BYTES + IV_BYTES;
  const salt = bytes.subarray(KID_BYTES, KID_BYTES + SALT_BYTES);
  const iv = bytes.subarray(KID_BYTES + SALT_BYTES, headerEnd);
  const tag = bytes.subarray(bytes.length - GCM_TAG_BYTES);
  const { aesKey, remember } = tokenKeys.forOpen(key, salt);
  let claims: Buffer;
  try {
    // authTagLength pins the tag to 16 bytes: without it Node 20 accepts a 4-byte tag.
    const decipher = createDecipheriv('aes-256-gcm', aesKey, iv, { authTagLength: GCM_TAG_BYTES });
    decipher.setAAD(Buffer.concat([AEAD_PREFIX_BYTES, bytes.subarray(0, headerEnd)]));
    decipher.setAuthTag(tag);
    const ciphertext = bytes.subarray(headerEnd, bytes.length - GCM_TAG_BYTES);
    claims = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new StateRefusal('decrypt_failed');
  }
  remember();
  return claims;
}
