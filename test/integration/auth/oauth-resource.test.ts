/**
 * Our server as an OAuth protected resource behind a real oidc-provider: metadata, 401 challenges,
 * JWT access tokens (good and bad of every kind), the principal in ctx, and the session and
 * requestState bindings per subject.
 */
import { modernPost, rawRequest, RawLegacyClient, streamingRequest } from '../../helpers/http-fixtures';
import { alice, bob, calls, startProtected, type ProtectedSetup } from './protected-app';

let s: ProtectedSetup;
beforeAll(async () => {
  s = await startProtected();
});
afterAll(async () => s?.stop());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const whoami = (headers: Record<string, string>) =>
  modernPost(s.server.url, 1, 'tools/call', { name: 'whoami', arguments: { text: 'x' } }, headers);

function challengeOf(h: string | string[] | undefined): Record<string, string> {
  const value = String(h);
  expect(value.startsWith('Bearer ')).toBe(true);
  return Object.fromEntries([...value.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe('protected resource metadata (RFC 9728)', () => {
  test.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])(
    'GET %s',
    async (path) => {
      const r = await rawRequest(`http://127.0.0.1:${s.server.port}${path}`, { method: 'GET' });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/application\/json/);
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(r.json()).toEqual({
        resource: s.resource,
        authorization_servers: [s.as.issuer],
        scopes_supported: ['tools:read'],
        bearer_methods_supported: ['header'],
      });
    },
  );

  test('HEAD has the headers and no body; a CORS preflight is answered', async () => {
    const base = `http://127.0.0.1:${s.server.port}/.well-known/oauth-protected-resource/mcp`;
    const head = await rawRequest(base, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const pre = await rawRequest(base, { method: 'OPTIONS', headers: { Origin: 'https://inspector.example' } });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
  });

  test('other well-known paths are 404, a POST is 405, a foreign Host 403', async () => {
    const base = `http://127.0.0.1:${s.server.port}`;
    expect((await rawRequest(`${base}/.well-known/oauth-protected-resource/other`, { method: 'GET' })).status).toBe(404);
    expect((await rawRequest(`${base}/.well-known/oauth-protected-resource`, { method: 'POST' })).status).toBe(405);
    const foreign = await rawRequest(`${base}/.well-known/oauth-protected-resource`, {
      method: 'GET',
      headers: { Host: 'evil.example' },
    });
    expect(foreign.status).toBe(403);
  });
});

describe('401 without a token', () => {
  const expectChallenge = (h: string | string[] | undefined) => {
    const c = challengeOf(h);
    expect(c.resource_metadata).toBe(`http://127.0.0.1:${s.server.port}/.well-known/oauth-protected-resource/mcp`);
    expect(c.scope).toBe('tools:read');
    expect(c.error).toBeUndefined();
  };

  test('2026-07-28 request', async () => {
    const before = calls.count;
    const r = await whoami({});
    expect(r.status).toBe(401);
    expectChallenge(r.headers['www-authenticate']);
    expect(calls.count).toBe(before);
  });

  test.each(['2025-03-26', '2025-06-18', '2025-11-25'])('legacy initialize on %s', async (version) => {
    const r = await new RawLegacyClient(s.server.url, version).post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    expect(r.status).toBe(401);
    expectChallenge(r.headers['www-authenticate']);
  });

  test('another scheme gets the challenge without an error code', async () => {
    const r = await whoami({ Authorization: 'Basic YWxpY2U6c2VjcmV0' });
    expect(r.status).toBe(401);
    expect(challengeOf(r.headers['www-authenticate']).error).toBeUndefined();
  });
});

describe('a valid JWT access token', () => {
  test('reaches the handler; the principal carries subject, client and scopes', async () => {
    const token = await s.as.token(alice, { scope: 'tools:read tools:write' });
    const r = await whoami(bearer(token));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.json().result.content[0].text)).toEqual({
      id: `sub:alice@${s.as.issuer}`,
      clientId: 'alice',
      scopes: ['tools:read', 'tools:write'],
    });
  });
});

describe('bad tokens: 401 invalid_token, the handler never runs, the server keeps serving', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const good = () => ({ iss: s.as.issuer, aud: s.resource, sub: 'mallory', client_id: 'alice', scope: 'tools:read' });
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

  const cases: Array<[string, () => Promise<string>]> = [
    ['expired', () => s.as.sign({ ...good(), iat: now() - 7200, exp: now() - 3600 })],
    ['not yet valid', () => s.as.sign({ ...good(), nbf: now() + 3600, exp: now() + 7200 })],
    ['without exp', () => s.as.sign(good())],
    ['wrong audience', () => s.as.sign({ ...good(), aud: 'http://127.0.0.1:9/elsewhere', exp: now() + 60 })],
    ['wrong issuer', () => s.as.sign({ ...good(), iss: 'http://127.0.0.1:9', exp: now() + 60 })],
    ['unknown kid', () => s.as.sign({ ...good(), exp: now() + 60 }, { kid: 'unknown-key' })],
    ['alg none', async () => `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64({ ...good(), exp: now() + 60 })}.`],
    [
      'HS256 signed with a public key as secret',
      async () => {
        const { createHmac } = await import('node:crypto');
        const jwks = await (await fetch(`${s.as.issuer}/jwks`)).text();
        const input = `${b64({ alg: 'HS256', kid: 'as-key-1' })}.${b64({ ...good(), exp: now() + 60 })}`;
        return `${input}.${createHmac('sha256', jwks).update(input).digest('base64url')}`;
      },
    ],
    [
      'tampered payload',
      async () => {
        const [h, , sig] = (await s.as.token(alice, { scope: 'tools:read' })).split('.');
        return `${h}.${b64({ ...good(), sub: 'admin', exp: now() + 60 })}.${sig}`;
      },
    ],
    ['a token for another resource', () => s.as.token(alice, { resource: 'http://127.0.0.1:9/elsewhere' })],
    ['random opaque string', async () => 'not-a-jwt-and-no-introspection'],
    ['three segments of garbage', async () => 'aaa.bbb.ccc'],
  ];

  test.each(cases)('%s', async (_name, make) => {
    const before = calls.count;
    const token = await make();
    const r = await whoami(bearer(token));
    expect(r.status).toBe(401);
    const c = challengeOf(r.headers['www-authenticate']);
    expect(c.error).toBe('invalid_token');
    expect(c.resource_metadata).toMatch(/\/\.well-known\/oauth-protected-resource\/mcp$/);
    expect(r.json().error.message).not.toContain(token);
    expect(calls.count).toBe(before);
    expect(s.logs.join('\n')).not.toContain(token);
    const ok = await whoami(bearer(await s.as.token(alice)));
    expect(ok.status).toBe(200);
  });

  test('an oversized Authorization header is refused before it is parsed', async () => {
    const r = await whoami(bearer('a'.repeat(9000)));
    expect(r.status).toBe(401);
    expect(challengeOf(r.headers['www-authenticate']).error).toBe('invalid_token');
  });

  test.each(['Bearer', 'Bearer a b', 'Bearer ä'])('malformed credentials %j: 400 invalid_request', async (value) => {
    const r = await whoami({ Authorization: value });
    expect(r.status).toBe(400);
    expect(challengeOf(r.headers['www-authenticate']).error).toBe('invalid_request');
  });
});

describe('bindings per subject', () => {
  test('2026-07-28: a requestState started by alice cannot be finished by bob', async () => {
    const caps = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const aliceToken = await s.as.token(alice);
    const bobToken = await s.as.token(bob);
    const call = { name: 'greet', arguments: { text: 'x' }, _meta: caps };
    const r1 = (await modernPost(s.server.url, 1, 'tools/call', call, bearer(aliceToken))).json();
    expect(r1.result.resultType).toBe('input_required');
    const retry = {
      ...call,
      inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
      requestState: r1.result.requestState,
    };
    const stolen = (await modernPost(s.server.url, 2, 'tools/call', retry, bearer(bobToken))).json();
    expect(stolen.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state' } });
    const own = (await modernPost(s.server.url, 3, 'tools/call', retry, bearer(aliceToken))).json();
    expect(own.result.content[0].text).toBe('Hello, Ada!');
  });

  test('legacy: alice\'s session is not bob\'s; bob cannot answer alice\'s pending elicitation, alice can', async () => {
    const aliceToken = await s.as.token(alice);
    const bobToken = await s.as.token(bob);
    const client = new RawLegacyClient(s.server.url, '2025-11-25', bearer(aliceToken));
    await client.initialize({ elicitation: {} });
    const asBob = { ...client.headers(), ...bearer(bobToken) };
    const list = await rawRequest(s.server.url, {
      headers: asBob,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
    });
    expect(list.status).toBe(404);
    const answers: number[] = [];
    const accept = (name: string) => ({ action: 'accept', content: { name } });
    const call = await streamingRequest(
      s.server.url,
      {
        headers: client.headers(),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'greet', arguments: { text: 'x' } },
        }),
      },
      (ev) => {
        if (ev.method !== 'elicitation/create') return;
        void (async () => {
          const stolen = await rawRequest(s.server.url, {
            headers: asBob,
            body: JSON.stringify({ jsonrpc: '2.0', id: ev.id, result: accept('Mallory') }),
          });
          answers.push(stolen.status);
          const own = await client.post({ jsonrpc: '2.0', id: ev.id, result: accept('Ada') });
          answers.push(own.status);
        })();
      },
    );
    expect(answers).toEqual([404, 202]);
    expect(call.events.pop()).toMatchObject({ id: 3, result: { content: [{ text: 'Hello, Ada!' }] } });
    const { Authorization: _none, ...anonymous } = client.headers();
    expect((await rawRequest(s.server.url, { method: 'GET', headers: anonymous })).status).toBe(401);
    expect((await rawRequest(s.server.url, { method: 'DELETE', headers: asBob })).status).toBe(404);
    expect((await rawRequest(s.server.url, { method: 'DELETE', headers: client.headers() })).status).toBe(200);
  });
});
