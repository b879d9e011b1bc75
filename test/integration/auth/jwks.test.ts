/**
 * The issuer's JWK Set: found through the issuer's metadata, fetched once and cached, fetched again
 * for an unknown `kid` (key rotation) at most once per cooldown, and a key server that does not
 * answer is a 503 (not a 401: the token may be fine), after which the server keeps serving.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { serveHttp, type HttpServerHandle, type OAuthResourceInit } from '../../../src';
import { modernPost } from '../../helpers/http-fixtures';
import { protectedApp } from './protected-app';

const RESOURCE = 'http://127.0.0.1:1/mcp';

interface KeyServer {
  issuer: string;
  fetches: number;
  keys: JWK[];
  hang: boolean;
  close(): Promise<void>;
}

async function keyServer(): Promise<KeyServer> {
  const state = { fetches: 0, keys: [] as JWK[], hang: false };
  const server: Server = createServer((req, res) => {
    if (state.hang) return; // never answers
    if (req.url === '/.well-known/oauth-authorization-server') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ issuer: ks.issuer, jwks_uri: `${ks.issuer}/jwks` }));
    }
    if (req.url === '/jwks') {
      state.fetches++;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ keys: state.keys }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const ks: KeyServer = Object.assign(state, {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  });
  return ks;
}

async function key(kid: string): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } };
}

const sign = (issuer: string, k: { privateKey: CryptoKey }, kid: string) =>
  new SignJWT({ scope: 'tools:read' })
    .setProtectedHeader({ alg: 'ES256', kid })
    .setIssuer(issuer)
    .setAudience(RESOURCE)
    .setSubject('ada')
    .setExpirationTime('5m')
    .sign(k.privateKey);

async function serve(issuer: string, extra: Partial<OAuthResourceInit>): Promise<HttpServerHandle> {
  return serveHttp(protectedApp(RESOURCE, issuer, [], extra), { port: 0 });
}

const call = (server: HttpServerHandle, token: string) =>
  modernPost(server.url, 1, 'tools/call', { name: 'whoami', arguments: { text: 'x' } }, {
    Authorization: `Bearer ${token}`,
  });

let ks: KeyServer;
let server: HttpServerHandle | undefined;
beforeEach(async () => {
  ks = await keyServer();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await ks.close();
});

test('keys are found through the issuer metadata, fetched once, and fetched again for a rotated-in key', async () => {
  const k1 = await key('k1');
  const k2 = await key('k2');
  ks.keys = [k1.jwk];
  server = await serve(ks.issuer, { jwksCooldownMs: 0 });
  for (let i = 0; i < 3; i++) expect((await call(server, await sign(ks.issuer, k1, 'k1'))).status).toBe(200);
  expect(ks.fetches).toBe(1);
  ks.keys = [k1.jwk, k2.jwk];
  expect((await call(server, await sign(ks.issuer, k2, 'k2'))).status).toBe(200);
  expect(ks.fetches).toBe(2);
});

test('made-up kids re-fetch the keys at most once per cooldown', async () => {
  const k1 = await key('k1');
  const stranger = await key('x');
  ks.keys = [k1.jwk];
  server = await serve(ks.issuer, { jwksCooldownMs: 60_000 });
  expect((await call(server, await sign(ks.issuer, k1, 'k1'))).status).toBe(200);
  for (let i = 0; i < 10; i++) {
    const r = await call(server, await sign(ks.issuer, stranger, `made-up-${i}`));
    expect(r.status).toBe(401);
    expect(String(r.headers['www-authenticate'])).toContain('error="invalid_token"');
  }
  expect(ks.fetches).toBe(1);
});

test('a key server that does not answer: 503 within the timeout, then the server serves again', async () => {
  const k1 = await key('k1');
  ks.keys = [k1.jwk];
  server = await serve(ks.issuer, { jwksUri: `${ks.issuer}/jwks`, jwksTimeoutMs: 200, failureCooldownMs: 100 });
  ks.hang = true;
  const r = await call(server, await sign(ks.issuer, k1, 'k1'));
  expect(r.status).toBe(503);
  expect(r.headers['www-authenticate']).toBeUndefined();
  ks.hang = false;
  // 503 (without asking the key server) until the failure cooldown has passed, then 200.
  const token = await sign(ks.issuer, k1, 'k1');
  const deadline = Date.now() + 10_000;
  let status = 503;
  while (status === 503 && Date.now() < deadline) status = (await call(server, token)).status;
  expect(status).toBe(200);
});

test('tokenType: a token without the required typ is refused', async () => {
  const k1 = await key('k1');
  ks.keys = [k1.jwk];
  server = await serve(ks.issuer, { tokenType: 'at+jwt' });
  expect((await call(server, await sign(ks.issuer, k1, 'k1'))).status).toBe(401);
  const typed = await new SignJWT({ scope: 'tools:read' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
    .setIssuer(ks.issuer)
    .setAudience(RESOURCE)
    .setSubject('ada')
    .setExpirationTime('5m')
    .sign(k1.privateKey);
  expect((await call(server, typed)).status).toBe(200);
});

test('a JWT whose claims nest deeply or are huge (under the header cap) is refused without harm', async () => {
  const k1 = await key('k1');
  ks.keys = [k1.jwk];
  server = await serve(ks.issuer, {});
  let deep: unknown = 1;
  for (let i = 0; i < 2000; i++) deep = [deep];
  const token = await new SignJWT({ deep, aud: 'x'.repeat(10) })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(ks.issuer)
    .setExpirationTime('5m')
    .sign(k1.privateKey);
  expect(token.length).toBeLessThan(8192);
  expect((await call(server, token)).status).toBe(401);
  expect((await call(server, await sign(ks.issuer, k1, 'k1'))).status).toBe(200);
});
