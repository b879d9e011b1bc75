/**
 * Per-principal session pools behind OAuth (issue 39): a user whose client walks away from every
 * session (the official v1 client, client credentials against a real oidc-provider) runs 3 × their
 * maxSessionsPerPrincipal and is served every time — their own idlest sessions make room — while
 * another user's idle session in the same server is never taken.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider as LegacyCredentials } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RawLegacyClient } from '../../helpers/http-fixtures';
import { alice, bob, startProtected, type ProtectedSetup } from '../../integration/auth/protected-app';
import type { OidcClient } from '../../helpers/oidc-provider';

const CAP = 2;
let s: ProtectedSetup;
beforeAll(async () => {
  s = await startProtected({}, {}, { maxSessionsPerPrincipal: CAP, sessionEvictionMinIdleMs: 0 });
});
afterAll(async () => s?.stop());

const text = (r: unknown) => (r as { content: Array<{ text?: string }> }).content[0]?.text;

/** One run of a CLI as `who`: initialize, one call, gone without DELETE. Returns its session and token. */
async function run(who: OidcClient): Promise<{ sessionId: string; token: string }> {
  const provider = new LegacyCredentials({
    clientId: who.client_id,
    clientSecret: who.client_secret,
    scope: 'tools:read',
    expectedIssuer: s.as.issuer,
  });
  const client = new LegacyClient({ name: 'cli', version: '1.0.0' });
  const transport = new LegacyTransport(new URL(s.server.url), { authProvider: provider });
  await client.connect(transport);
  const me = JSON.parse(String(text(await client.callTool({ name: 'whoami', arguments: { text: 'x' } }))));
  // Principal ids are namespaced by kind and issuer (issue 31): `sub:<subject>@<issuer>`.
  expect(me.id).toMatch(new RegExp(`^sub:${who.client_id}@http://127\\.0\\.0\\.1:\\d+$`));
  const sessionId = transport.sessionId!;
  await client.close();
  return { sessionId, token: (await provider.tokens())!.access_token };
}

async function ping(sessionId: string, token: string): Promise<number> {
  const c = new RawLegacyClient(s.server.url, '2025-11-25', { Authorization: `Bearer ${token}` });
  c.sessionId = sessionId;
  return (await c.call('p', 'ping')).status;
}

test('3 × maxSessionsPerPrincipal runs by one user are all served from their own share; another user keeps theirs', async () => {
  const bobs = await run(bob);
  const alices = [];
  for (let n = 0; n < 3 * CAP; n++) alices.push(await run(alice));
  const statuses = [];
  for (const a of alices) statuses.push(await ping(a.sessionId, a.token));
  expect(statuses).toEqual([...Array(2 * CAP).fill(404), ...Array(CAP).fill(200)]);
  expect(await ping(bobs.sessionId, bobs.token)).toBe(200);
  // Bob's session id is still his alone: Alice's token gets the same 404 as an unknown id.
  expect(await ping(bobs.sessionId, alices.at(-1)!.token)).toBe(404);
  expect(s.logs.filter((l) => l.includes('evicted to make room'))).toHaveLength(2 * CAP);
});
