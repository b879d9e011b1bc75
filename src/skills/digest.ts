/** SEP-2640 digests: SHA-256 over a file's raw bytes, as `sha256:` and 64 lowercase hex digits. */
import { createHash } from 'node:crypto';

export function skillDigest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
