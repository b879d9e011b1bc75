/** PKCE (RFC 7636) with S256, the only method MCP clients use, and the `state` value. */
import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** A fresh 43-character verifier (32 random bytes) and its S256 challenge. */
export function createPkce(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier), method: 'S256' };
}

/** BASE64URL(SHA256(verifier)) without padding. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** An unguessable `state` for one authorization request. */
export function createState(): string {
  return randomBytes(16).toString('base64url');
}
