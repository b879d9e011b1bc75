/** The resource's header handling with a verifier of your own, and a principal mapping. */
import { InvalidTokenError, OAuthResourceModule, RESOURCE_SERVER, type ResourceServer } from '../../../src';
import { container } from 'tsyringe';

function resource(extra: Record<string, unknown> = {}): ResourceServer {
  const c = container.createChildContainer();
  OAuthResourceModule.configure({
    resource: 'https://mcp.example.com/mcp',
    authorizationServers: ['https://auth.example.com'],
    verifier: {
      verify: async (token: string) => {
        if (token === 'good') return { subject: 'ada', clientId: 'cli', scopes: ['a'], claims: { sub: 'ada' } };
        if (token === 'down') throw new Error('authorization server unreachable');
        throw new InvalidTokenError('unknown token');
      },
    },
    ...extra,
  }).register(c);
  return c.resolve(RESOURCE_SERVER);
}

test('a verifier of your own decides; its principal is the default mapping', async () => {
  expect(await resource().authenticate('Bearer good')).toEqual({
    ok: true,
    principal: {
      id: 'sub:ada@',
      kind: 'sub',
      subject: 'ada',
      clientId: 'cli',
      issuer: undefined,
      scopes: ['a'],
      claims: { sub: 'ada' },
    },
  });
});

test('principal maps the verified token', async () => {
  const r = resource({ principal: (t: { subject?: string }) => ({ id: `tenant-1:${t.subject}` }) });
  expect(await r.authenticate('bearer   good')).toEqual({ ok: true, principal: { id: 'tenant-1:ada' } });
});

test.each<[string, string | undefined, Record<string, unknown>]>([
  ['no header', undefined, { status: 401 }],
  ['another scheme', 'Basic abc', { status: 401 }],
  ['refused by the verifier', 'Bearer bad', { status: 401, error: 'invalid_token', reason: 'unknown token' }],
  ['a verifier that cannot answer', 'Bearer down', { status: 503, error: undefined }],
  ['two tokens', 'Bearer good good', { status: 400, error: 'invalid_request' }],
  ['oversized', `Bearer ${'g'.repeat(9000)}`, { status: 401, error: 'invalid_token' }],
])('%s', async (_name, header, expected) => {
  const outcome = await resource().authenticate(header);
  expect(outcome).toMatchObject({ ok: false, ...expected });
  expect(JSON.stringify(outcome)).not.toContain('good');
});
