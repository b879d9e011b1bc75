/** OAuthResourceModule's options: bad configuration fails at start-up, each problem named. */
import { OAuthResourceModule } from '../../../src';
import { bearerChallenge } from '../../../src/auth/bearer-challenge';
import { metadataPaths, metadataUrl } from '../../../src/auth/resource-metadata';

const base = { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'] };

test('a valid configuration is frozen', () => {
  const m = OAuthResourceModule.configure(base);
  expect(Object.isFrozen(m.options)).toBe(true);
  expect(m.options.clockToleranceSeconds).toBe(30);
});

test.each<[string, Record<string, unknown>, RegExp]>([
  ['resource without scheme', { resource: 'mcp.example.com' }, /resource: must be an absolute URL/],
  ['resource with a fragment', { resource: 'https://mcp.example.com/mcp#x' }, /resource: must not have a fragment/],
  ['plain http off loopback', { resource: 'http://mcp.example.com/mcp' }, /resource: must be an https URL/],
  ['no authorization server', { authorizationServers: [] }, /authorizationServers/],
  ['alg none', { algorithms: ['ES256', 'none'] }, /algorithms: none not accepted/],
  ['HMAC', { algorithms: ['HS256'] }, /algorithms: HS256 not accepted/],
  ['a verifier with introspection', { verifier: { verify: async () => ({ scopes: [], claims: {} }) }, jwksUri: 'https://a.example/jwks' }, /verifier: a custom verifier replaces/],
  ['nothing can verify', { jwt: false }, /jwt: with jwt: false, give introspection/],
  ['a typo', { audience: 'x' }, /audience/],
  ['introspection over http', { introspection: { endpoint: 'http://auth.example.com/i', clientId: 'a', clientSecret: 'b' } }, /introspection.endpoint: must be an https URL/],
])('%s is refused', (_name, change, message) => {
  expect(() => OAuthResourceModule.configure({ ...base, ...change } as never)).toThrow(message);
});

test('metadata paths: path-suffixed first, the root form too; none suffixed for a root resource', () => {
  expect(metadataPaths('https://h.example/mcp')).toEqual([
    '/.well-known/oauth-protected-resource/mcp',
    '/.well-known/oauth-protected-resource',
  ]);
  expect(metadataPaths('https://h.example')).toEqual(['/.well-known/oauth-protected-resource']);
  expect(metadataUrl('https://h.example:8443/a/mcp')).toBe(
    'https://h.example:8443/.well-known/oauth-protected-resource/a/mcp',
  );
});

test('challenge parameters are quoted and escaped', () => {
  expect(bearerChallenge('https://h/m', { error: 'invalid_token', description: 'say "hi" \\ é', scopes: ['a', 'b'] })).toBe(
    'Bearer resource_metadata="https://h/m", scope="a b", error="invalid_token", error_description="say \\"hi\\" \\\\ "',
  );
});
