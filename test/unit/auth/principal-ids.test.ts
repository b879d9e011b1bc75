/**
 * Principals that cannot collide (issue 31, N8): ids are namespaced by kind and issuer, `sub` must
 * be a non-empty string (`42` and `"42"` are not one principal: the number is refused), and an
 * `iat` in the future beyond the clock tolerance is refused.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { JwtVerifier } from '../../../src/auth/jwt-verifier';
import { OAuthResourceOptions } from '../../../src/auth/oauth-options';
import { oauthPrincipal } from '../../../src/auth/oauth-principal';
import { InvalidTokenError } from '../../../src/auth/token-verifier';
import { namespacedPrincipalId } from '../../../src/context/principal';

const ISSUER = 'https://as.example';
const RESOURCE = 'https://mcp.example/mcp';
let privateKey: CryptoKey;
let jwks: string;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  jwks = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] });
});
beforeEach(() => {
  jest.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(jwks, { status: 200 }));
});
afterEach(() => jest.restoreAllMocks());

const verifier = () =>
  new JwtVerifier(
    Object.assign(new OAuthResourceOptions(), {
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      jwksUri: `${ISSUER}/j`,
    }),
  );

const token = (claims: Record<string, unknown>, iat?: number) => {
  const jwt = new SignJWT({ scope: 'a', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setAudience(RESOURCE)
    .setExpirationTime('1h');
  if (iat !== undefined) jwt.setIssuedAt(iat);
  return jwt.sign(privateKey);
};

test.each<[string, Record<string, unknown>]>([
  ['a numeric sub', { sub: 42 }],
  ['an empty sub', { sub: '' }],
  ['an object sub', { sub: { id: 'x' } }],
  ['a numeric client_id', { client_id: 7 }],
])('%s is refused', async (_name, claims) => {
  await expect(verifier().verify(await token(claims))).rejects.toBeInstanceOf(InvalidTokenError);
});

test('an iat in the future beyond clockToleranceSeconds is refused; within it, accepted', async () => {
  const now = Math.floor(Date.now() / 1000);
  const v = verifier();
  await expect(v.verify(await token({ sub: 'ada' }, now + 86_400))).rejects.toThrow(/iat/);
  await expect(v.verify(await token({ sub: 'ada' }, now + 10))).resolves.toMatchObject({ subject: 'ada' });
});

test('ids of different kinds or issuers never compare equal', () => {
  const scope = { scopes: [], claims: {} };
  const user = oauthPrincipal({ subject: 'client:batch', issuer: ISSUER, ...scope });
  const client = oauthPrincipal({ clientId: 'batch', issuer: ISSUER, ...scope });
  expect(user.id).not.toBe(client.id);
  expect(user.kind).toBe('sub');
  expect(client.kind).toBe('client');
  const elsewhere = oauthPrincipal({ subject: 'client:batch', issuer: 'https://other.example', ...scope });
  expect(elsewhere.id).not.toBe(user.id);
  // A subject cannot forge the issuer part: '@' and ':' are encoded in the subject.
  const forged = oauthPrincipal({ subject: 'ada@https://other.example', issuer: ISSUER, ...scope });
  expect(forged.id).not.toBe(oauthPrincipal({ subject: 'ada', issuer: 'https://other.example', ...scope }).id);
  expect(namespacedPrincipalId({ kind: 'sub', subject: 'ada', issuer: ISSUER })).toBe(`sub:ada@${ISSUER}`);
});

test('a verifier of your own cannot hand back a non-string or empty subject', () => {
  expect(() => oauthPrincipal({ subject: 42 as unknown as string, scopes: [], claims: {} })).toThrow(InvalidTokenError);
  expect(() => oauthPrincipal({ subject: '', scopes: [], claims: {} })).toThrow(InvalidTokenError);
  expect(() => oauthPrincipal({ scopes: [], claims: {} })).toThrow(InvalidTokenError);
});
