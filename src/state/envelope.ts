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
import { createCipheriv, createDecipheriv, timingSafeEqual } from 'node:crypto';
import { base64UrlLength, decodeBase64Url } from './base64url';
import { writeClaims, type ClaimsDraft } from './claims';
import { HMAC_BLOCK } from './hmac-sha256';
import { KID_BYTES, type DerivedStateKey, type KeyRing } from './key-ring';
import { StateRefusal } from './state-refusal';
import { SALT_BYTES, type TokenKeys } from './token-keys';

export type EnvelopeMode = 'hmac' | 'aead';

export const ENVELOPE_PREFIX: Readonly<Record<EnvelopeMode, string>> = { hmac: 'v1.', aead: 'v1e.' };
const AEAD_PREFIX_BYTES = Buffer.from(ENVELOPE_PREFIX.aead);

const MAC_BYTES = 32;
const IV_BYTES = 12;
const GCM_TAG_BYTES = 16;
const AEAD_HEADER_BYTES = KID_BYTES + SALT_BYTES + IV_BYTES;
/** Room in front of a v1. token's bytes for the HMAC key pad and the prefix it signs. */
const HMAC_LEAD = HMAC_BLOCK + ENVELOPE_PREFIX.hmac.length;

/** Bytes the envelope adds around the claims. */
export function envelopeOverhead(mode: EnvelopeMode): number {
  return mode === 'hmac' ? KID_BYTES + MAC_BYTES : KID_BYTES + SALT_BYTES + IV_BYTES + GCM_TAG_BYTES;
}

/** Exact token length for claims of `claimsBytes` bytes, known before any crypto runs. */
export function tokenLength(mode: EnvelopeMode, claimsBytes: number): number {
  return ENVELOPE_PREFIX[mode].length + base64UrlLength(envelopeOverhead(mode) + claimsBytes);
}

/** The token for `claims` (claimsLength(claims) bytes): one buffer, the claims written in place. */
export function sealEnvelope(
  mode: EnvelopeMode,
  key: DerivedStateKey,
  claims: ClaimsDraft,
  claimsBytes: number,
  random: (n: number) => Buffer,
  tokenKeys: TokenKeys,
): string {
  const prefix = ENVELOPE_PREFIX[mode];
  if (mode === 'hmac') {
    // [HMAC pad | "v1." | kid | claims | mac]: the token is everything after the prefix.
    const signedEnd = HMAC_LEAD + KID_BYTES + claimsBytes;
    const out = Buffer.allocUnsafe(signedEnd + MAC_BYTES);
    out.write(prefix, HMAC_BLOCK, 'latin1');
    key.kid.copy(out, HMAC_LEAD);
    writeClaims(claims, out, HMAC_LEAD + KID_BYTES);
    key.mac.signInto(out.subarray(0, signedEnd), out, signedEnd);
    return prefix + out.toString('base64url', HMAC_LEAD);
  }
  const { salt, aesKey } = tokenKeys.forSeal(key);
  const iv = random(IV_BYTES);
  const out = Buffer.allocUnsafe(AEAD_HEADER_BYTES + claimsBytes + GCM_TAG_BYTES);
  key.kid.copy(out, 0);
  salt.copy(out, KID_BYTES);
  iv.copy(out, KID_BYTES + SALT_BYTES);
  // The claims are written where their ciphertext goes, then overwritten by it: no plaintext buffer.
  const body = out.subarray(AEAD_HEADER_BYTES, AEAD_HEADER_BYTES + claimsBytes);
  writeClaims(claims, body, 0);
  // GCM's tag is 16 bytes unless asked otherwise; the decipher pins the length it accepts.
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  cipher.setAAD(aeadAad(out));
  cipher.update(body).copy(body);
  cipher.final(); // GCM: no further output
  cipher.getAuthTag().copy(out, AEAD_HEADER_BYTES + claimsBytes);
  return prefix + out.toString('base64url');
}

/** AAD = "v1e." ‖ header, in one scratch buffer: seal and open are synchronous, so it is never shared. */
const aadScratch = Buffer.alloc(AEAD_PREFIX_BYTES.length + AEAD_HEADER_BYTES);
AEAD_PREFIX_BYTES.copy(aadScratch, 0);
function aeadAad(token: Buffer): Buffer {
  token.copy(aadScratch, AEAD_PREFIX_BYTES.length, 0, AEAD_HEADER_BYTES);
  return aadScratch;
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
  const lead = mode === 'hmac' ? HMAC_LEAD : 0;
  const padded = decodeBase64Url(token.slice(dot + 1), lead);
  if (padded === undefined) throw new StateRefusal('malformed', 'not canonical base64url');
  const bytes = lead === 0 ? padded : padded.subarray(lead);
  // At least one byte of claims: also guarantees every slice below has its full length.
  if (bytes.length <= envelopeOverhead(mode)) throw new StateRefusal('malformed', 'token too short');
  const key = ring.find(bytes.subarray(0, KID_BYTES));
  if (key === undefined) throw new StateRefusal('unknown_key');
  return { key, claimsBytes: mode === 'hmac' ? verifyMac(prefix, key, padded) : decrypt(key, bytes, tokenKeys) };
}

/** The expected MAC of the token being opened: open is synchronous, so it is never shared. */
const macScratch = Buffer.alloc(MAC_BYTES);

/** `padded` is the token's bytes after HMAC_LEAD free bytes. */
function verifyMac(prefix: string, key: DerivedStateKey, padded: Buffer): Buffer {
  const signedEnd = padded.length - MAC_BYTES;
  padded.write(prefix, HMAC_BLOCK, 'latin1');
  key.mac.signInto(padded.subarray(0, signedEnd), macScratch, 0);
  if (!timingSafeEqual(macScratch, padded.subarray(signedEnd))) throw new StateRefusal('bad_mac');
  return padded.subarray(HMAC_LEAD + KID_BYTES, signedEnd);
}

function decrypt(key: DerivedStateKey, bytes: Buffer, tokenKeys: TokenKeys): Buffer {
  const headerEnd = AEAD_HEADER_BYTES;
  const salt = bytes.subarray(KID_BYTES, KID_BYTES + SALT_BYTES);
  const iv = bytes.subarray(KID_BYTES + SALT_BYTES, headerEnd);
  const tag = bytes.subarray(bytes.length - GCM_TAG_BYTES);
  const { aesKey, remember } = tokenKeys.forOpen(key, salt);
  let claims: Buffer;
  try {
    // authTagLength pins the tag to 16 bytes: without it Node 20 accepts a 4-byte tag.
    const decipher = createDecipheriv('aes-256-gcm', aesKey, iv, { authTagLength: GCM_TAG_BYTES });
    decipher.setAAD(aeadAad(bytes));
    decipher.setAuthTag(tag);
    claims = decipher.update(bytes.subarray(headerEnd, bytes.length - GCM_TAG_BYTES));
    decipher.final(); // throws unless the tag verifies; GCM has no further output
  } catch {
    throw new StateRefusal('decrypt_failed');
  }
  remember();
  return claims;
}
