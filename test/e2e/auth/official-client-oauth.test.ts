/**
 * The official clients' own OAuth support against our protected server and a real oidc-provider:
 * they start from the 401, discover the authorization server through our metadata, get a
 * client-credentials token for our resource, and call. The v2 client speaks 2026-07-28, the v1
 * client a 2025-11-25 session; a scope-guarded tool makes the client step up.
 */
import {
  ClientCredentialsProvider,
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider as LegacyCredentials } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { alice, bob, startProtected, type ProtectedSetup } from '../../integration/auth/protected-app';

let s: ProtectedSetup;
beforeAll(async () => {
  s = await startProtected();
});
afterAll(async () => s?.stop());

const text = (r: unknown) => (r as { content: Array<{ text?: string }> }).content[0]?.text;

test('official v2 client: client credentials through discovery, then a call as alice', async () => {
  const provider = new ClientCredentialsProvider({
    clientId: alice.client_id,
    clientSecret: alice.client_secret,
    scope: 'tools:read',
    expectedIssuer: s.as.issuer,
  });
  const client = new ModernClient(
    { name: 'v2-oauth', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new ModernTransport(new URL(s.server.url), { authProvider: provider }));
  try {
    const who = JSON.parse(String(text(await client.callTool({ name: 'whoami', arguments: { text: 'x' } }))));
    expect(who).toMatchObject({ id: `sub:alice@${s.as.issuer}`, scopes: ['tools:read'] });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('peek');
    expect(names).not.toContain('erase');
  } finally {
    await client.close();
  }
});

test('official v2 client steps up on 403 insufficient_scope', async () => {
  const provider = new ClientCredentialsProvider({
    clientId: bob.client_id,
    clientSecret: bob.client_secret,
    scope: 'tools:read',
    expectedIssuer: s.as.issuer,
  });
  const client = new ModernClient(
    { name: 'v2-step-up', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new ModernTransport(new URL(s.server.url), { authProvider: provider }));
  try {
    expect(text(await client.callTool({ name: 'erase', arguments: { text: 'x' } }))).toBe('erased');
    expect(provider.tokens()?.scope?.split(' ').sort()).toEqual(['tools:read', 'tools:write']);
  } finally {
    await client.close();
  }
});

test('official v1 client: a 2025-11-25 session through the same discovery', async () => {
  const provider = new LegacyCredentials({
    clientId: alice.client_id,
    clientSecret: alice.client_secret,
    scope: 'tools:read',
    expectedIssuer: s.as.issuer,
  });
  const client = new LegacyClient({ name: 'v1-oauth', version: '1.0.0' });
  const transport = new LegacyTransport(new URL(s.server.url), { authProvider: provider });
  await client.connect(transport);
  try {
    expect(transport.sessionId).toBeDefined();
    const who = JSON.parse(String(text(await client.callTool({ name: 'whoami', arguments: { text: 'x' } }))));
    expect(who).toMatchObject({ id: `sub:alice@${s.as.issuer}` });
  } finally {
    await client.close();
  }
});
