/**
 * Strict base64url (RFC 4648 §5, no padding). Node's decoder skips foreign characters and
 * ignores the pad bits of the last character, so 4 spellings decode to the same bytes; we
 * refuse everything but the one canonical spelling.
 */

export function encodeBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** The bytes of a canonical base64url string, or undefined for any other string. */
export function decodeBase64Url(text: string): Buffer | undefined {
  if (text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Re-encoding gives the one canonical spelling: any foreign character (skipped by the decoder),
  // '+', '/', '=' padding, whitespace or non-zero pad bits make it differ from the input.
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/** Length of the unpadded base64url text for `byteLength` bytes. */
export function base64UrlLength(byteLength: number): number {
  return Math.ceil((byteLength * 4) / 3);
}
