/**
 * `@RequireScopes` behind a real oidc-provider: lists show what the token's scopes allow, a call
 * with too few is 403 insufficient_scope naming every scope it needs (step-up), on both eras.
 */
import { modernPost, RawLegacyClient, replyOf } from '../../helpers/http-fixtures';
import { alice, calls, startProtected, type ProtectedSetup } from './protected-app';

let s: ProtectedSetup;
beforeAll(async () => {
  s = await startProtected();
});
afterAll(async () => s?.stop());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function toolNames(token: string): Promise<string[]> {
  const r = await modernPost(s.server.url, 1, 'tools/list', {}, bearer(token));
  return (r.json().result.tools as Array<{ name: string }>).map((t) => t.name).sort();
}

test('lists show only what the scopes allow', async () => {
  expect(await toolNames(await s.as.token(alice, { scope: 'tools:read tools:write' }))).toEqual([
    'erase',
    'greet',
    'peek',
    'whoami',
  ]);
  expect(await toolNames(await s.as.token(alice, { scope: 'tools:read' }))).toEqual(['greet', 'peek', 'whoami']);
});

test('2026-07-28: too few scopes is 403 insufficient_scope with every scope needed; the handler never runs', async () => {
  const token = await s.as.token(alice, { scope: 'tools:read' });
  const before = calls.count;
  const r = await modernPost(s.server.url, 2, 'tools/call', { name: 'erase', arguments: { text: 'x' } }, bearer(token));
  expect(r.status).toBe(403);
  const challenge = String(r.headers['www-authenticate']);
  expect(challenge).toContain('error="insufficient_scope"');
  expect(challenge).toContain('scope="tools:read tools:write"');
  expect(challenge).toContain(`resource_metadata="http://127.0.0.1:${s.server.port}/.well-known/oauth-protected-resource/mcp"`);
  expect(r.json().error).toMatchObject({
    code: -32003,
    data: { reason: 'insufficient_scope', scopes: ['tools:read', 'tools:write'] },
  });
  expect(calls.count).toBe(before);

  const stepped = await s.as.token(alice, { scope: 'tools:read tools:write' });
  const erase = { name: 'erase', arguments: { text: 'x' } };
  const ok = await modernPost(s.server.url, 3, 'tools/call', erase, bearer(stepped));
  expect(ok.status).toBe(200);
  expect(ok.json().result.content[0].text).toBe('erased');
});

test('legacy session: the same 403 and challenge', async () => {
  const token = await s.as.token(alice, { scope: 'tools:read' });
  const client = new RawLegacyClient(s.server.url, '2025-11-25', bearer(token));
  await client.initialize();
  const list = await client.call(2, 'tools/list', {});
  const names = (replyOf(list).result.tools as Array<{ name: string }>).map((t) => t.name);
  expect(names).not.toContain('erase');
  const r = await client.call(3, 'tools/call', { name: 'erase', arguments: { text: 'x' } });
  expect(r.status).toBe(403);
  expect(String(r.headers['www-authenticate'])).toContain('scope="tools:read tools:write"');
  const peek = await client.call(4, 'tools/call', { name: 'peek', arguments: { text: 'x' } });
  expect(peek.status).toBe(200);
});
