/**
 * Strict base64url (RFC 4648 §5, no padding). Node's decoder skips foreign characters and
 * ignores the pad bits of the last character, so 4 spellings decode to the same bytes; we
 * refuse everything but the one canonical spelling.
 */

export function encodeBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/**
 * The bytes of a canonical base64url string, or undefined for any other string. With `lead`,
 * they start at that offset of the returned buffer and the first `lead` bytes are the caller's
 * to fill (HMAC pads the key in front of the message there).
 */
export function decodeBase64Url(text: string, lead = 0): Buffer | undefined {
  if (text.length % 4 === 1) return undefined;
  const out = Buffer.allocUnsafe(lead + Math.floor((text.length * 3) / 4));
  const end = lead + out.write(text, lead, 'base64url');
  // Re-encoding gives the one canonical spelling: any foreign character (skipped by the decoder),
  // '+', '/', '=' padding, whitespace or non-zero pad bits make it differ from the input.
  return out.toString('base64url', lead, end) === text ? out.subarray(0, end) : undefined;
}

/** Length of the unpadded base64url text for `byteLength` bytes. */
export function base64UrlLength(byteLength: number): number {
  return Math.ceil((byteLength * 4) / 3);
}
