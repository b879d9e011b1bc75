/**
 * Verified JWTs are reused for jwtCacheSeconds (never past exp), keyed by the token's hash: a token
 * seen again skips the signature check, a tampered or other token does not, 0 turns it off, and
 * the cache is bounded.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { JwtVerifier } from '../../../src/auth/jwt-verifier';
import { OAuthResourceOptions } from '../../../src/auth/oauth-options';
import { InvalidTokenError } from '../../../src/auth/token-verifier';

const ISSUER = 'https://as.example';
const RESOURCE = 'https://mcp.example/mcp';
let privateKey: CryptoKey;
let jwks: string;
let now: number;
let fetches: number;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  jwks = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] });
});
beforeEach(() => {
  now = Date.now();
  fetches = 0;
  jest.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    fetches++;
    return new Response(jwks, { status: 200, headers: { 'content-type': 'application/json' } });
  });
});
afterEach(() => jest.restoreAllMocks());

function options(extra: Partial<OAuthResourceOptions> = {}): OAuthResourceOptions {
  return Object.assign(new OAuthResourceOptions(), {
    resource: RESOURCE,
    authorizationServers: [ISSUER],
    jwksUri: `${ISSUER}/jwks`,
    ...extra,
  });
}

const token = (sub: string, expInS = 3600) =>
  new SignJWT({ scope: 'a' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setAudience(RESOURCE)
    .setSubject(sub)
    .setExpirationTime(Math.floor(now / 1000) + expInS)
    .sign(privateKey);

/** Counts signature checks: jose verifies through WebCrypto. */
function countVerifications(): { count: () => number } {
  const spy = jest.spyOn(globalThis.crypto.subtle, 'verify');
  return { count: () => spy.mock.calls.length };
}

test('a token seen again within jwtCacheSeconds is not verified again; after them it is', async () => {
  const v = new JwtVerifier(options(), () => now);
  const t = await token('ada');
  const checks = countVerifications();
  expect(await v.verify(t)).toMatchObject({ subject: 'ada', scopes: ['a'] });
  expect(await v.verify(t)).toMatchObject({ subject: 'ada' });
  expect(checks.count()).toBe(1);
  now += 31_000;
  await v.verify(t);
  expect(checks.count()).toBe(2);
  expect(fetches).toBe(1); // the key set is its own cache
});

test('never past exp: a token expiring sooner is verified again (and refused) once it expires', async () => {
  const v = new JwtVerifier(options({ clockToleranceSeconds: 0 }), () => now);
  const t = await token('ada', 5);
  await v.verify(t);
  now += 6_000;
  jest.useFakeTimers({ now, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  try {
    await expect(v.verify(t)).rejects.toBeInstanceOf(InvalidTokenError);
  } finally {
    jest.useRealTimers();
  }
});

test('a tampered token is not a cache hit, and refusals are not cached', async () => {
  const v = new JwtVerifier(options(), () => now);
  const t = await token('ada');
  await v.verify(t);
  const [h, p, s] = t.split('.');
  const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: 'eve' })).toString('base64url')}.${s}`;
  await expect(v.verify(forged)).rejects.toBeInstanceOf(InvalidTokenError);
  await expect(v.verify(forged)).rejects.toBeInstanceOf(InvalidTokenError);
});

test('jwtCacheSeconds 0 verifies every request; the cache holds at most jwtCacheMaxEntries', async () => {
  const off = new JwtVerifier(options({ jwtCacheSeconds: 0 }), () => now);
  const t = await token('ada');
  const checks = countVerifications();
  await off.verify(t);
  await off.verify(t);
  expect(checks.count()).toBe(2);

  const small = new JwtVerifier(options({ jwtCacheMaxEntries: 2 }), () => now);
  const [a, b, c] = await Promise.all([token('a'), token('b'), token('c')]);
  for (const x of [a, b, c]) await small.verify(x);
  const before = checks.count();
  await small.verify(c); // kept
  expect(checks.count()).toBe(before);
  await small.verify(a); // the oldest, dropped
  expect(checks.count()).toBe(before + 1);
});
