import { createHash } from 'node:crypto';
import {
  AuthenticationFailedError,
  AuthorizationResponseError,
  InsufficientScopeError,
  TokenEndpointError,
} from '../../../../src/client/auth/auth-errors';
import { resolveOAuthOptions, type OAuthInit } from '../../../../src/client/auth/auth-options';
import { OAuthSession } from '../../../../src/client/auth/oauth-session';
import type { RedirectHandler } from '../../../../src/client/auth/redirect-handlers';
import { MemoryTokenStore } from '../../../../src/client/auth/token-store';
import { AS, asMetadata, FakeOAuth, json, MCP } from './fake-oauth';

function approving(fake: FakeOAuth, overrides: Record<string, string | null> = {}): RedirectHandler & { urls: URL[] } {
  const urls: URL[] = [];
  return {
    urls,
    redirectUri: () => 'http://127.0.0.1:9/callback',
    authorize: async (url) => (urls.push(url), fake.approve(url, overrides)),
  };
}

function session(fake: FakeOAuth, options: OAuthInit) {
  return new OAuthSession(MCP, resolveOAuthOptions(options), fake.fetch);
}

const post = { method: 'POST', body: '{}' };

test('authorization code + PKCE: discovery, registration, S256, state, resource, then the request again', async () => {
  const fake = new FakeOAuth();
  const redirect = approving(fake);
  const s = session(fake, { redirect });
  const res = await s.fetch(MCP, post);
  expect(res.status).toBe(200);
  const [url] = redirect.urls;
  const q = url!.searchParams;
  expect(q.get('response_type')).toBe('code');
  expect(q.get('client_id')).toBe('dcr-client');
  expect(q.get('code_challenge_method')).toBe('S256');
  expect(q.get('resource')).toBe(MCP);
  expect(q.get('scope')).toBeNull();
  const register = fake.seen.find((r) => r.url === `${AS}/register`)!;
  expect(register.json).toMatchObject({
    redirect_uris: ['http://127.0.0.1:9/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
  });
  const token = fake.seen.find((r) => r.url === `${AS}/token`)!.form!;
  expect(token.get('grant_type')).toBe('authorization_code');
  expect(token.get('client_id')).toBe('dcr-client');
  expect(token.get('resource')).toBe(MCP);
  expect(createHash('sha256').update(token.get('code_verifier')!).digest('base64url')).toBe(q.get('code_challenge'));
  const last = fake.seen.at(-1)!;
  expect(last.headers.get('authorization')).toBe('Bearer at-1');
});

test('concurrent 401s share one sign-in; later requests reuse the token', async () => {
  const fake = new FakeOAuth();
  const redirect = approving(fake);
  const s = session(fake, { redirect });
  const replies = await Promise.all([s.fetch(MCP, post), s.fetch(MCP, post), s.fetch(MCP, post)]);
  expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
  await s.fetch(MCP, post);
  expect(redirect.urls).toHaveLength(1);
});

test('a wrong iss stops before the token request (RFC 9207)', async () => {
  const fake = new FakeOAuth();
  const s = session(fake, { redirect: approving(fake, { iss: 'https://evil.example.com' }) });
  await expect(s.fetch(MCP, post)).rejects.toThrow(AuthorizationResponseError);
  expect(fake.urls()).not.toContain(`POST ${AS}/token`);
});

test('a server that advertises iss must send it', async () => {
  const fake = new FakeOAuth();
  fake.routes.set(`${AS}/.well-known/oauth-authorization-server`, () =>
    json(asMetadata({ authorization_response_iss_parameter_supported: true })),
  );
  const s = session(fake, { redirect: approving(fake, { iss: null }) });
  await expect(s.fetch(MCP, post)).rejects.toThrow(/advertises the iss/);
});

test('PKCE without S256 is refused', async () => {
  const fake = new FakeOAuth();
  fake.routes.set(`${AS}/.well-known/oauth-authorization-server`, () =>
    json(asMetadata({ code_challenge_methods_supported: ['plain'] })),
  );
  const redirect = approving(fake);
  await expect(session(fake, { redirect }).fetch(MCP, post)).rejects.toThrow(/S256/);
  expect(redirect.urls).toHaveLength(0);
});

test('a rejected token is refreshed with the refresh token, without a new authorization', async () => {
  const fake = new FakeOAuth();
  const redirect = approving(fake);
  const s = session(fake, { redirect });
  await s.fetch(MCP, post);
  fake.valid.clear(); // the server forgets at-1
  expect((await s.fetch(MCP, post)).status).toBe(200);
  expect(redirect.urls).toHaveLength(1);
  const grants = fake.seen.filter((r) => r.form).map((r) => r.form!.get('grant_type'));
  expect(grants).toEqual(['authorization_code', 'refresh_token']);
  expect(fake.seen.at(-1)!.headers.get('authorization')).toBe('Bearer at-2');
});

test('an expired token is refreshed before it is sent', async () => {
  const fake = new FakeOAuth();
  const store = new MemoryTokenStore();
  const s = session(fake, { redirect: approving(fake), tokenStore: store });
  await s.fetch(MCP, post);
  const key = 'https://mcp.example.com/mcp';
  const stored = store.load(key)!;
  store.save(key, { ...stored, tokens: { ...stored.tokens!, expiresAt: Date.now() - 1 } });
  await s.fetch(MCP, post);
  const sent = fake.seen.filter((r) => r.url === MCP).map((r) => r.headers.get('authorization'));
  expect(sent).toEqual([null, 'Bearer at-1', 'Bearer at-2']);
});

test('step-up on 403 insufficient_scope asks for the union of scopes', async () => {
  const fake = new FakeOAuth();
  fake.routes.set(`${new URL(MCP).origin}/.well-known/oauth-protected-resource/mcp`, () =>
    json({ resource: MCP, authorization_servers: [AS], scopes_supported: ['read'] }),
  );
  const redirect = approving(fake);
  const s = session(fake, { redirect });
  await s.fetch(MCP, post);
  fake.required = ['write'];
  expect((await s.fetch(MCP, post)).status).toBe(200);
  expect(redirect.urls.map((u) => u.searchParams.get('scope'))).toEqual(['read', 'read write']);
});

test('step-up stops after maxStepUps re-authorizations', async () => {
  const fake = new FakeOAuth();
  fake.required = ['admin'];
  fake.routes.set(`${AS}/token`, () => {
    fake.valid.set('t', []); // never grants admin
    return json({ access_token: 't', token_type: 'bearer' });
  });
  const redirect = approving(fake);
  const err = await session(fake, { redirect, maxStepUps: 2 })
    .fetch(MCP, post)
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(InsufficientScopeError);
  expect(err).toMatchObject({ scope: 'admin', attempts: 2 });
  expect(redirect.urls).toHaveLength(3);
});

test('still 401 after signing in is an error, not a loop', async () => {
  const fake = new FakeOAuth();
  fake.routes.set(`${AS}/token`, () => json({ access_token: 'never-valid', token_type: 'Bearer' }));
  const s = session(fake, { redirect: approving(fake) });
  await expect(s.fetch(MCP, post)).rejects.toThrow(AuthenticationFailedError);
});

test('token endpoint errors are typed and never echo a token or secret', async () => {
  const fake = new FakeOAuth();
  fake.routes.set(`${AS}/token`, () => json({ error: 'invalid_client', access_token: 'leak' }, 401));
  const err = (await session(fake, { grant: 'client_credentials', clientId: 'c', clientSecret: 'hunter2' })
    .fetch(MCP, post)
    .catch((e: unknown) => e)) as TokenEndpointError;
  expect(err).toBeInstanceOf(TokenEndpointError);
  expect(err).toMatchObject({ httpStatus: 401, oauthError: 'invalid_client' });
  expect(err.message).not.toMatch(/leak|hunter2/);
});

test('a token response that is not a Bearer token is refused', async () => {
  const fake = new FakeOAuth();
  fake.routes.set(`${AS}/token`, () => json({ access_token: 'x', token_type: 'mac' }));
  const s = session(fake, { grant: 'client_credentials', clientId: 'c', clientSecret: 's' });
  await expect(s.fetch(MCP, post)).rejects.toThrow(/not a Bearer token/);
});

test('when the resource moves to another authorization server, the old registration is not reused', async () => {
  const fake = new FakeOAuth();
  const as2 = 'https://auth2.example.com';
  let n = 0;
  fake.routes.set(`${AS}/register`, () => json({ client_id: `client-${++n}` }, 201));
  fake.routes.set(`${as2}/.well-known/oauth-authorization-server`, () =>
    json({ ...asMetadata(), issuer: as2, authorization_endpoint: `${as2}/authorize` }),
  );
  const redirect = approving(fake);
  const s = session(fake, { redirect });
  await s.fetch(MCP, post);
  fake.routes.set(`${new URL(MCP).origin}/.well-known/oauth-protected-resource/mcp`, () =>
    json({ resource: MCP, authorization_servers: [as2] }),
  );
  fake.valid.clear();
  await s.fetch(MCP, post);
  expect(redirect.urls.map((u) => u.searchParams.get('client_id'))).toEqual(['client-1', 'client-2']);
});

describe('options', () => {
  test.each([
    [{ grant: 'authorization_code' }, /redirect/],
    [{ grant: 'client_credentials', clientId: 'x' }, /clientSecret or privateKey/],
    [{ redirect: { redirectUri: () => '', authorize: async () => '' }, clientMetadataUrl: 'http://x/y' }, /https URL/],
    [{ grant: 'password' }, /grant/],
    [{ redirec: 1 }, /did you mean "redirect"/],
    [{ grant: 'client_credentials', clientId: 'x', clientSecret: 's', maxStepUps: 99 }, /maxStepUps/],
  ])('%j is refused', (input, message) => {
    expect(() => resolveOAuthOptions(input as OAuthInit)).toThrow(message);
  });

  test('validated once, then frozen; secrets are not echoed', () => {
    const o = resolveOAuthOptions({ grant: 'client_credentials', clientId: 'x', clientSecret: 'hunter2' });
    expect(Object.isFrozen(o)).toBe(true);
    expect(resolveOAuthOptions(o)).toBe(o);
    expect(() => resolveOAuthOptions({ clientSecret: 'hunter2', grant: 'nope' } as unknown as OAuthInit)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});
