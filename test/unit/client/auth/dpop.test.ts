import { createHash } from 'node:crypto';
import { resolveOAuthOptions } from '../../../../src/client/auth/auth-options';
import { DpopKey } from '../../../../src/client/auth/dpop';
import { OAuthSession } from '../../../../src/client/auth/oauth-session';
import { AS, asMetadata, FakeOAuth, json, MCP } from './fake-oauth';

async function verify(proof: string) {
  const jose = await import('jose');
  const header = jose.decodeProtectedHeader(proof);
  const key = await jose.importJWK(header.jwk as Parameters<typeof jose.importJWK>[0], header.alg);
  return { header, claims: (await jose.jwtVerify(proof, key)).payload };
}

test('a proof: dpop+jwt, the public key only, htm/htu without the query, ath, nonce, a fresh jti', async () => {
  const key = await DpopKey.create();
  const a = await verify(await key.proof({ method: 'post', url: `${MCP}?x=1#f`, accessToken: 'tok', nonce: 'n1' }));
  expect(a.header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256' });
  expect(a.header.jwk).not.toHaveProperty('d');
  expect(a.claims).toMatchObject({
    htm: 'POST',
    htu: MCP,
    ath: createHash('sha256').update('tok').digest('base64url'),
    nonce: 'n1',
  });
  const b = await verify(await key.proof({ method: 'GET', url: MCP }));
  expect(b.claims.jti).not.toBe(a.claims.jti);
  expect(b.claims).not.toHaveProperty('ath');
});

test('with dpop on: a bound token, the DPoP scheme with a proof per request, both servers\' nonces honoured', async () => {
  const fake = new FakeOAuth();
  fake.routes.set(`${AS}/.well-known/oauth-authorization-server`, () =>
    json(asMetadata({ dpop_signing_alg_values_supported: ['ES256'] })),
  );
  let asNonced = false;
  fake.routes.set(`${AS}/token`, async (_r, seen) => {
    const proof = (await verify(seen.headers.get('dpop')!)).claims;
    if (proof.nonce !== 'as-nonce') {
      return json({ error: 'use_dpop_nonce' }, 400, { 'dpop-nonce': 'as-nonce' });
    }
    asNonced = true;
    return json({ access_token: 'bound', token_type: 'DPoP', expires_in: 60 });
  });
  const proofs: Record<string, unknown>[] = [];
  fake.routes.set(MCP, async (req) => {
    const auth = req.headers.get('authorization');
    if (!auth) return new Response(null, { status: 401, headers: { 'www-authenticate': 'DPoP algs="ES256"' } });
    const proof = (await verify(req.headers.get('dpop')!)).claims;
    proofs.push(proof);
    if (proof.nonce !== 'rs-nonce')
      return new Response(null, {
        status: 401,
        headers: { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': 'rs-nonce' },
      });
    return auth === 'DPoP bound' ? json({ ok: true }) : new Response(null, { status: 401 });
  });
  const s = new OAuthSession(
    MCP,
    resolveOAuthOptions({ grant: 'client_credentials', clientId: 'c', clientSecret: 's', dpop: true }),
    fake.fetch,
  );
  expect((await s.fetch(MCP, { method: 'POST', body: '{}' })).status).toBe(200);
  expect((await s.fetch(MCP, { method: 'POST', body: '{}' })).status).toBe(200);
  expect(asNonced).toBe(true);
  expect(proofs.map((p) => p.nonce)).toEqual([undefined, 'rs-nonce', 'rs-nonce']);
  expect(new Set(proofs.map((p) => p.jti)).size).toBe(3);
});

test('dpop off, or a server without ES256 proofs: Bearer as before, and a DPoP token_type is refused', async () => {
  const fake = new FakeOAuth();
  fake.routes.set(`${AS}/token`, () => json({ access_token: 'x', token_type: 'DPoP' }));
  const s = new OAuthSession(
    MCP,
    resolveOAuthOptions({ grant: 'client_credentials', clientId: 'c', clientSecret: 's', dpop: true }),
    fake.fetch,
  );
  await expect(s.fetch(MCP, { method: 'POST', body: '{}' })).rejects.toThrow(/not a Bearer token/);
  expect(fake.seen.find((r) => r.url === `${AS}/token`)!.headers.get('dpop')).toBeNull();
});
