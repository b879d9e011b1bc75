/**
 * DPoP (RFC 9449): a key pair held for the life of one sign-in session, and a fresh proof JWT per
 * request: `typ: dpop+jwt`, the public key in the header, `htm`, `htu` (no query, no fragment),
 * `iat`, a unique `jti`, `ath` (the access token's hash) toward the resource, and the server's
 * `nonce` once it has asked for one. `jose` is loaded on first use.
 */
import { createHash, randomUUID } from 'node:crypto';
import type * as Jose from 'jose';

export interface DpopProofInput {
  method: string;
  url: string;
  accessToken?: string;
  nonce?: string;
}

export class DpopKey {
  private constructor(
    private readonly jose: typeof Jose,
    private readonly privateKey: Jose.CryptoKey,
    private readonly publicJwk: Jose.JWK,
    readonly algorithm: string,
  ) {}

  static async create(algorithm = 'ES256'): Promise<DpopKey> {
    const jose = await import('jose');
    const { privateKey, publicKey } = await jose.generateKeyPair(algorithm, { extractable: true });
    const { kty, crv, x, y, n, e } = await jose.exportJWK(publicKey);
    const publicJwk = Object.fromEntries(Object.entries({ kty, crv, x, y, n, e }).filter(([, v]) => v !== undefined));
    return new DpopKey(jose, privateKey, publicJwk, algorithm);
  }

  proof(input: DpopProofInput): Promise<string> {
    const u = new URL(input.url);
    const claims: Record<string, string> = { htm: input.method.toUpperCase(), htu: `${u.origin}${u.pathname}` };
    if (input.accessToken) claims.ath = createHash('sha256').update(input.accessToken, 'ascii').digest('base64url');
    if (input.nonce) claims.nonce = input.nonce;
    return new this.jose.SignJWT(claims)
      .setProtectedHeader({ alg: this.algorithm, typ: 'dpop+jwt', jwk: this.publicJwk })
      .setJti(randomUUID())
      .setIssuedAt()
      .sign(this.privateKey);
  }
}
