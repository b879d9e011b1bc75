import { resolveOAuthOptions, type OAuthInit } from '../../../../src/client/auth/auth-options';
import { idJagAssertion } from '../../../../src/client/auth/id-jag';
import { OAuthSession } from '../../../../src/client/auth/oauth-session';
import { chooseAuthMethod, resolveClient } from '../../../../src/client/auth/registration';
import { defaultServerMetadata } from '../../../../src/client/auth/metadata';
import { AS, asMetadata, FakeOAuth, json, MCP } from './fake-oauth';

const post = { method: 'POST', body: '{}' };
const tokenRequest = (fake: FakeOAuth) => fake.seen.find((r) => r.url === `${AS}/token`)!;

function withAuthMethods(fake: FakeOAuth, methods: string[]) {
  fake.routes.set(`${AS}/.well-known/oauth-authorization-server`, () =>
    json(asMetadata({ token_endpoint_auth_methods_supported: methods })),
  );
}

test('client_credentials with client_secret_basic: form-encoded id and secret, scope and resource', async () => {
  const fake = new FakeOAuth();
  withAuthMethods(fake, ['client_secret_basic']);
  const o: OAuthInit = { grant: 'client_credentials', clientId: 'a b', clientSecret: 's:é', scope: 'x y' };
  await new OAuthSession(MCP, resolveOAuthOptions(o), fake.fetch).fetch(MCP, post);
  const t = tokenRequest(fake);
  const basic = Buffer.from(t.headers.get('authorization')!.slice(6), 'base64').toString();
  expect(basic).toBe(`a+b:${encodeURIComponent('s:é')}`);
  expect(Object.fromEntries(t.form!)).toEqual({ grant_type: 'client_credentials', scope: 'x y', resource: MCP });
});

test('client_credentials with private_key_jwt: a signed assertion for the issuer', async () => {
  const jose = await import('jose');
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const fake = new FakeOAuth();
  withAuthMethods(fake, ['private_key_jwt']);
  const privatePem = await jose.exportPKCS8(privateKey);
  const o: OAuthInit = { grant: 'client_credentials', clientId: 'bot', privateKey: privatePem };
  await new OAuthSession(MCP, resolveOAuthOptions(o), fake.fetch).fetch(MCP, post);
  const form = tokenRequest(fake).form!;
  expect(form.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
  const { payload } = await jose.jwtVerify(form.get('client_assertion')!, publicKey, { audience: AS });
  expect(payload).toMatchObject({ iss: 'bot', sub: 'bot' });
  expect(typeof payload.jti).toBe('string');
});

test('jwt_bearer (workload identity): the workload JWT as assertion, read fresh, no client secret', async () => {
  const fake = new FakeOAuth();
  let n = 0;
  const o: OAuthInit = { grant: 'jwt_bearer', clientId: 'wl', assertion: async () => `jwt-${++n}` };
  await new OAuthSession(MCP, resolveOAuthOptions(o), fake.fetch).fetch(MCP, post);
  expect(Object.fromEntries(tokenRequest(fake).form!)).toEqual({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: 'jwt-1',
    resource: MCP,
    client_id: 'wl',
  });
});

test('the token endpoint method follows what the server supports', () => {
  const server = (methods?: string[]) => ({ ...defaultServerMetadata(AS), tokenEndpointAuthMethods: methods });
  const secret = { secret: true, key: false };
  expect(chooseAuthMethod(server(), secret)).toBe('client_secret_basic');
  expect(chooseAuthMethod(server(['client_secret_post']), secret)).toBe('client_secret_post');
  expect(chooseAuthMethod(server(['none']), secret)).toBe('none');
  expect(chooseAuthMethod(server(['client_secret_basic', 'private_key_jwt']), { secret: false, key: true })).toBe(
    'private_key_jwt',
  );
  expect(chooseAuthMethod(server(['client_secret_basic']), { secret: false, key: false })).toBe('none');
  expect(chooseAuthMethod(server(['none']), secret, 'client_secret_post')).toBe('client_secret_post');
});

describe('which client id', () => {
  const base = { clientName: 'n', applicationType: 'native' as const, grant: 'authorization_code' as const };
  const opts = (fake: FakeOAuth) => ({ fetch: fake.fetch, timeoutMs: 1000 });
  const meta = (extra: Record<string, unknown> = {}) => ({ ...defaultServerMetadata(AS), ...extra });

  test('a metadata document URL only where the server supports it, else registration', async () => {
    const fake = new FakeOAuth();
    const identity = { ...base, clientMetadataUrl: 'https://me.example/client.json' };
    const cimd = await resolveClient(meta({ clientIdMetadataDocumentSupported: true }), identity, 'x', opts(fake));
    expect(cimd).toEqual({ clientId: 'https://me.example/client.json', authMethod: 'none' });
    expect(fake.seen).toHaveLength(0);
    const dcr = await resolveClient(meta({ registrationEndpoint: `${AS}/register` }), identity, 'x', opts(fake));
    expect(dcr.clientId).toBe('dcr-client');
  });

  test('no registration endpoint and no id: a typed error naming the fix', async () => {
    const fake = new FakeOAuth();
    await expect(resolveClient(meta({ registrationEndpoint: undefined }), base, 'x', opts(fake))).rejects.toThrow(
      /pass clientId/,
    );
  });

  test.each([
    ['an error status', () => json({ error: 'invalid_redirect_uri' }, 400)],
    ['no client_id', () => json({ client_secret: 'x' }, 201)],
    ['not JSON', () => new Response('<html>', { status: 201 })],
  ])('a registration answered with %s is refused', async (_name, reply) => {
    const fake = new FakeOAuth();
    fake.routes.set(`${AS}/register`, reply);
    await expect(
      resolveClient(meta({ registrationEndpoint: `${AS}/register` }), base, 'x', opts(fake)),
    ).rejects.toMatchObject({ code: 'OMC_CLIENT_AUTH_TOKEN' });
  });
});

describe('enterprise-managed authorization (ID-JAG)', () => {
  const IDP = 'https://idp.example.com';
  const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

  test('the ID token is exchanged at the IdP for an ID-JAG (issuer, resource), then presented', async () => {
    const fake = new FakeOAuth();
    withAuthMethods(fake, ['client_secret_basic']);
    fake.routes.set(`${IDP}/token`, () =>
      json({ access_token: 'the-jag', issued_token_type: ID_JAG, token_type: 'N_A' }),
    );
    const o: OAuthInit = {
      grant: 'jwt_bearer',
      clientId: 'mcp-client',
      clientSecret: 's',
      assertion: idJagAssertion({
        tokenEndpoint: `${IDP}/token`,
        idToken: () => 'id-token',
        clientId: 'idp-client',
        fetch: fake.fetch,
      }),
    };
    await new OAuthSession(MCP, resolveOAuthOptions(o), fake.fetch).fetch(MCP, post);
    const exchange = fake.seen.find((r) => r.url === `${IDP}/token`)!.form!;
    expect(Object.fromEntries(exchange)).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token: 'id-token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      audience: AS,
      resource: MCP,
      client_id: 'idp-client',
    });
    expect(tokenRequest(fake).form!.get('assertion')).toBe('the-jag');
  });

  test.each([
    ['a refusal', () => json({ error: 'invalid_grant' }, 400)],
    ['another token type', () => json({ access_token: 'x', issued_token_type: 'urn:x:jwt' })],
  ])('%s from the IdP is a TokenEndpointError', async (_n, reply) => {
    const fake = new FakeOAuth();
    fake.routes.set(`${IDP}/token`, reply);
    const assertion = idJagAssertion({ tokenEndpoint: `${IDP}/token`, idToken: () => 't', fetch: fake.fetch });
    await expect(assertion({ issuer: AS, resource: MCP })).rejects.toMatchObject({ code: 'OMC_CLIENT_AUTH_TOKEN' });
  });
});
