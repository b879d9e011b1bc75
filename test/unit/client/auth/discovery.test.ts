import { AuthDiscoveryError } from '../../../../src/client/auth/auth-errors';
import { MAX_AUTH_BODY_BYTES } from '../../../../src/client/auth/bounded-fetch';
import {
  discover,
  resourceMatches,
  resourceMetadataCandidates,
  serverMetadataCandidates,
} from '../../../../src/client/auth/discovery';
import { AS, asMetadata, FakeOAuth, json, MCP } from './fake-oauth';

const ORIGIN = 'https://mcp.example.com';
const run = (fake: FakeOAuth, fromChallenge?: string) =>
  discover(MCP, fromChallenge, { fetch: fake.fetch, timeoutMs: 1000 });

test('protected resource metadata: the challenge URL, then path-suffixed, then root', () => {
  expect(resourceMetadataCandidates(MCP, `${ORIGIN}/custom.json`)).toEqual([
    `${ORIGIN}/custom.json`,
    `${ORIGIN}/.well-known/oauth-protected-resource/mcp`,
    `${ORIGIN}/.well-known/oauth-protected-resource`,
  ]);
  expect(resourceMetadataCandidates(`${ORIGIN}/`)).toEqual([`${ORIGIN}/.well-known/oauth-protected-resource`]);
  expect(resourceMetadataCandidates(MCP, 'javascript:alert(1)')).toHaveLength(2);
});

test('authorization server metadata: the three path forms, or the two root documents', () => {
  expect(serverMetadataCandidates('https://a.example/tenant1')).toEqual([
    'https://a.example/.well-known/oauth-authorization-server/tenant1',
    'https://a.example/.well-known/openid-configuration/tenant1',
    'https://a.example/tenant1/.well-known/openid-configuration',
  ]);
  expect(serverMetadataCandidates('https://a.example')).toEqual([
    'https://a.example/.well-known/oauth-authorization-server',
    'https://a.example/.well-known/openid-configuration',
  ]);
});

test('a resource matches its own URL and the paths below it, on the same origin only', () => {
  expect(resourceMatches(MCP, MCP)).toBe(true);
  expect(resourceMatches(ORIGIN, MCP)).toBe(true);
  expect(resourceMatches(`${ORIGIN}/m`, MCP)).toBe(false);
  expect(resourceMatches('https://evil.example.com/mcp', MCP)).toBe(false);
});

test('falls through 404s to the OpenID configuration', async () => {
  const fake = new FakeOAuth();
  fake.routes.delete(`${AS}/.well-known/oauth-authorization-server`);
  fake.routes.set(`${AS}/.well-known/openid-configuration`, () => json(asMetadata()));
  const found = await run(fake);
  expect(found.server.tokenEndpoint).toBe(`${AS}/token`);
  expect(fake.urls()).toEqual([
    `GET ${ORIGIN}/.well-known/oauth-protected-resource/mcp`,
    `GET ${AS}/.well-known/oauth-authorization-server`,
    `GET ${AS}/.well-known/openid-configuration`,
  ]);
});

test('no protected resource metadata: the 2025-03-26 fallbacks at the server origin', async () => {
  const fake = new FakeOAuth();
  fake.routes.clear();
  const found = await run(fake);
  expect(found.resource).toBeUndefined();
  expect(found.server).toMatchObject({
    issuer: ORIGIN,
    authorizationEndpoint: `${ORIGIN}/authorize`,
    tokenEndpoint: `${ORIGIN}/token`,
    registrationEndpoint: `${ORIGIN}/register`,
  });
  fake.routes.set(`${ORIGIN}/.well-known/oauth-authorization-server`, () =>
    json({ ...asMetadata(), issuer: ORIGIN, token_endpoint: `${ORIGIN}/oauth/token` }),
  );
  expect((await run(fake)).server.tokenEndpoint).toBe(`${ORIGIN}/oauth/token`);
});

describe('hostile metadata stops sign-in', () => {
  const prm = `${ORIGIN}/.well-known/oauth-protected-resource/mcp`;

  test('a resource that is another server', async () => {
    const fake = new FakeOAuth();
    fake.routes.set(prm, () => json({ resource: 'https://evil.example.com/mcp', authorization_servers: [AS] }));
    await expect(run(fake)).rejects.toThrow(AuthDiscoveryError);
    expect(fake.urls()).toHaveLength(1);
  });

  test('an issuer that is not the one looked up (RFC 8414 §3.3)', async () => {
    const fake = new FakeOAuth();
    fake.routes.set(`${AS}/.well-known/oauth-authorization-server`, () =>
      json(asMetadata({ issuer: 'https://attacker.example.com' })),
    );
    await expect(run(fake)).rejects.toThrow(/issuer does not match/);
  });

  test('malformed documents', async () => {
    const fake = new FakeOAuth();
    fake.routes.set(prm, () => json({ resource: MCP, authorization_servers: 'not a list' }));
    await expect(run(fake)).rejects.toThrow(/authorization_servers/);
    fake.routes.set(prm, () => json({ resource: MCP, authorization_servers: [AS] }));
    fake.routes.set(`${AS}/.well-known/oauth-authorization-server`, () =>
      json(asMetadata({ token_endpoint: 'javascript:alert(1)' })),
    );
    await expect(run(fake)).rejects.toThrow(/token_endpoint/);
  });

  test('an oversized document, declared or streamed', async () => {
    const fake = new FakeOAuth();
    const big = JSON.stringify({ resource: MCP, authorization_servers: [AS], pad: 'x'.repeat(MAX_AUTH_BODY_BYTES) });
    fake.routes.set(prm, () => new Response(big, { headers: { 'content-type': 'application/json' } }));
    await expect(run(fake)).rejects.toThrow(/larger than/);
    const stream = new ReadableStream({
      pull(c) {
        c.enqueue(new TextEncoder().encode('x'.repeat(65536)));
      },
    });
    fake.routes.set(prm, () => new Response(stream));
    await expect(run(fake)).rejects.toThrow(/larger than/);
  });

  test('a redirect to another origin is not followed; same-origin redirects are', async () => {
    const fake = new FakeOAuth();
    fake.routes.set(prm, () => new Response(null, { status: 302, headers: { location: 'https://evil.example.com/x' } }));
    await expect(run(fake)).rejects.toThrow(/another origin/);
    expect(fake.urls().some((u) => u.includes('evil'))).toBe(false);
    fake.routes.set(prm, () => new Response(null, { status: 302, headers: { location: '/prm.json' } }));
    fake.routes.set(`${ORIGIN}/prm.json`, () => json({ resource: MCP, authorization_servers: [AS] }));
    expect((await run(fake)).resource?.resource).toBe(MCP);
  });

  test('no authorization server metadata anywhere', async () => {
    const fake = new FakeOAuth();
    fake.routes.delete(`${AS}/.well-known/oauth-authorization-server`);
    await expect(run(fake)).rejects.toThrow(/No authorization server metadata/);
  });
});
