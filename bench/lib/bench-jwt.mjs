// The `ours-jwt` load: a process-local ES256 key whose public JWK the bench server trusts (it serves
// the JWKS itself, bench/servers/ours.cjs with OAUTH_JWK) and one access token signed with it that
// every request carries. The server verifies it per request against its cached JWKS.
import { generateKeyPairSync, sign } from 'node:crypto';

export const BENCH_ISSUER = 'https://issuer.bench.invalid';
export const BENCH_RESOURCE = 'http://127.0.0.1/mcp';

const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
export const BENCH_JWK = JSON.stringify({ ...publicKey.export({ format: 'jwk' }), kid: 'bench', alg: 'ES256', use: 'sig' });

const part = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const now = Math.floor(Date.now() / 1000);
const input = `${part({ alg: 'ES256', typ: 'at+jwt', kid: 'bench' })}.${part({
  iss: BENCH_ISSUER, aud: BENCH_RESOURCE, sub: 'bench-user', client_id: 'bench', scope: 'mcp', iat: now, exp: now + 24 * 3600,
})}`;
export const BENCH_TOKEN = `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
