/** Opaque access tokens from a real oidc-provider, checked through its RFC 7662 introspection endpoint. */
import { modernPost } from '../../helpers/http-fixtures';
import { alice, calls, introspector, startProtected, type ProtectedSetup } from './protected-app';

let s: ProtectedSetup;
beforeAll(async () => {
  s = await startProtected(
    (issuer) => ({
      jwt: false,
      introspection: {
        endpoint: `${issuer}/token/introspection`,
        clientId: introspector.client_id,
        clientSecret: introspector.client_secret,
      },
    }),
    { opaque: true },
  );
});
afterAll(async () => s?.stop());

const whoami = (token: string) =>
  modernPost(s.server.url, 1, 'tools/call', { name: 'whoami', arguments: { text: 'x' } }, {
    Authorization: `Bearer ${token}`,
  });

test('an opaque token for this resource passes; the principal is its client (no sub)', async () => {
  const token = await s.as.token(alice, { scope: 'tools:read' });
  expect(token.split('.')).toHaveLength(1);
  for (let i = 0; i < 2; i++) {
    const r = await whoami(token);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.json().result.content[0].text)).toEqual({
      id: `client:alice@${s.as.issuer}`,
      clientId: 'alice',
      scopes: ['tools:read'],
    });
  }
});

test.each<[string, () => Promise<string>]>([
  ['unknown to the authorization server', async () => 'x'.repeat(43)],
  ['issued for another resource', () => s.as.token(alice, { resource: 'http://127.0.0.1:9/elsewhere' })],
  ['a JWT-looking string', async () => 'aaa.bbb.ccc'],
])('%s: 401 invalid_token, the handler never runs', async (_name, make) => {
  const before = calls.count;
  const token = await make();
  const r = await whoami(token);
  expect(r.status).toBe(401);
  expect(String(r.headers['www-authenticate'])).toContain('error="invalid_token"');
  expect(calls.count).toBe(before);
  expect(s.logs.join('\n')).not.toContain(token);
});
