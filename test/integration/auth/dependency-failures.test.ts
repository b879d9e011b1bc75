/**
 * An authorization server that fails must not be hammered by our traffic (issue 31, N1, N6 and the
 * introspection surprise): JWKS, metadata and introspection answering 500, hanging, or sending a
 * huge answer; 300 requests with junk tokens cost a handful of fetches and log lines, the callers
 * get 503 (not 401), the answer cap holds while the body streams, and a caller whose token was
 * already verified keeps being served.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { serveHttp, type HttpServerHandle, type OAuthResourceInit } from '../../../src';
import { modernPost } from '../../helpers/http-fixtures';
import { protectedApp } from './protected-app';

const RESOURCE = 'http://127.0.0.1:1/mcp';
type Mode = 'ok' | '500' | 'hang' | 'huge';

interface FakeAs {
  issuer: string;
  mode: { metadata: Mode; jwks: Mode; introspection: Mode };
  hits: { metadata: number; jwks: number; introspection: number };
  keys: JWK[];
  /** Bytes of huge answers the server managed to write before the client went away. */
  hugeBytesWritten: number;
  close(): Promise<void>;
}

async function fakeAs(): Promise<FakeAs> {
  const as = {
    mode: { metadata: 'ok', jwks: 'ok', introspection: 'ok' } as FakeAs['mode'],
    hits: { metadata: 0, jwks: 0, introspection: 0 },
    keys: [] as JWK[],
    hugeBytesWritten: 0,
  };
  const answer = (res: ServerResponse, mode: Mode, body: () => unknown) => {
    if (mode === 'hang') return;
    if (mode === '500') return res.writeHead(500).end('down');
    if (mode === 'huge') return writeHuge(res);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body()));
  };
  const writeHuge = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' }); // no content-length: chunked
    const chunk = Buffer.alloc(1 << 16, 0x20);
    let left = 100 * 1024 * 1024;
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        left -= chunk.length;
        as.hugeBytesWritten += chunk.length;
        if (!res.write(chunk)) return res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    res.write('{"pad":"');
    pump();
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    if (req.url?.startsWith('/.well-known/')) {
      as.hits.metadata++;
      return answer(res, as.mode.metadata, () => ({ issuer: fake.issuer, jwks_uri: `${fake.issuer}/jwks` }));
    }
    if (req.url === '/jwks') {
      as.hits.jwks++;
      return answer(res, as.mode.jwks, () => ({ keys: as.keys }));
    }
    if (req.url === '/introspect') {
      as.hits.introspection++;
      return answer(res, as.mode.introspection, () => ({ active: false }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const fake: FakeAs = Object.assign(as, {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
  return fake;
}

async function key(kid: string): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } };
}

const sign = (issuer: string, k: { privateKey: CryptoKey }, kid: string, sub = 'ada') =>
  new SignJWT({ scope: 'tools:read' })
    .setProtectedHeader({ alg: 'ES256', kid })
    .setIssuer(issuer)
    .setAudience(RESOURCE)
    .setSubject(sub)
    .setExpirationTime('5m')
    .sign(k.privateKey);

const call = (server: HttpServerHandle, token: string) =>
  modernPost(server.url, 1, 'tools/call', { name: 'whoami', arguments: { text: 'x' } }, {
    Authorization: `Bearer ${token}`,
  });

/** `n` calls, `width` at a time. */
async function flood(n: number, width: number, one: (i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += width) {
    statuses.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, j) => one(i + j)))));
  }
  return statuses;
}

let as: FakeAs;
let server: HttpServerHandle | undefined;
let logs: string[];
beforeEach(async () => {
  as = await fakeAs();
  logs = [];
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await as.close();
});

async function serve(extra: Partial<OAuthResourceInit>): Promise<HttpServerHandle> {
  const app = protectedApp(RESOURCE, as.issuer, logs, { failureCooldownMs: 60_000, ...extra });
  server = await serveHttp(app, { port: 0 });
  return server;
}

test('JWKS answering 500: 300 junk JWTs cost one fetch and a few log lines; a verified caller is still served', async () => {
  const good = await key('k1');
  as.keys = [good.jwk];
  const s = await serve({ jwksUri: `${as.issuer}/jwks`, jwksCooldownMs: 0 });
  const goodToken = await sign(as.issuer, good, 'k1', 'grace');
  expect((await call(s, goodToken)).status).toBe(200);
  expect(as.hits.jwks).toBe(1);

  as.mode.jwks = '500';
  const stranger = await key('x');
  const junk = await Promise.all(Array.from({ length: 300 }, (_, i) => sign(as.issuer, stranger, `made-up-${i}`)));
  const statuses = await flood(300, 20, async (i) => (await call(s, junk[i]!)).status);
  expect(statuses.every((st) => st === 503)).toBe(true);
  expect(as.hits.jwks).toBe(2); // the one reload the made-up kid asked for; its failure is remembered
  expect(logs.length).toBeLessThanOrEqual(6);
  expect((await call(s, goodToken)).status).toBe(200); // verified before: served from the token cache
});

test('JWKS answering 500 from a cold start: 300 requests, one fetch', async () => {
  as.mode.jwks = '500';
  const s = await serve({ jwksUri: `${as.issuer}/jwks` });
  const k = await key('k1');
  const token = await sign(as.issuer, k, 'k1');
  const statuses = await flood(300, 30, async () => (await call(s, token)).status);
  expect(statuses.every((st) => st === 503)).toBe(true);
  expect(as.hits.jwks).toBe(1);
  expect(logs.length).toBeLessThanOrEqual(6);
});

test('metadata answering 500: 100 requests cost one round of discovery (3 URLs), not 300 fetches', async () => {
  as.mode.metadata = '500';
  const s = await serve({});
  const k = await key('k1');
  const token = await sign(as.issuer, k, 'k1');
  const statuses = await flood(100, 20, async () => (await call(s, token)).status);
  expect(statuses.every((st) => st === 503)).toBe(true);
  expect(as.hits.metadata).toBe(3);
  expect(as.hits.jwks).toBe(0);
});

test('after the failure cooldown the issuer is asked again and a good token passes', async () => {
  const k = await key('k1');
  as.keys = [k.jwk];
  as.mode.jwks = '500';
  const s = await serve({ jwksUri: `${as.issuer}/jwks`, failureCooldownMs: 100 });
  const token = await sign(as.issuer, k, 'k1');
  expect((await call(s, token)).status).toBe(503);
  as.mode.jwks = 'ok';
  const deadline = Date.now() + 10_000;
  let status = 503;
  while (status === 503 && Date.now() < deadline) status = (await call(s, token)).status;
  expect(status).toBe(200);
  expect(as.hits.jwks).toBeGreaterThanOrEqual(2);
});

const introspecting = (extra: Record<string, unknown> = {}) => ({
  jwt: false,
  introspection: {
    endpoint: `${as.issuer}/introspect`,
    clientId: 'rs',
    clientSecret: 'secret',
    timeoutMs: 300,
    ...extra,
  },
});

test('introspection answering 500: 300 junk tokens cost at most maxInFlight POSTs and a few log lines', async () => {
  as.mode.introspection = '500';
  const s = await serve(introspecting({ maxInFlight: 4 }));
  const statuses = await flood(300, 20, async (i) => (await call(s, `junk-${i}-${'x'.repeat(30)}`)).status);
  expect(statuses.every((st) => st === 503)).toBe(true);
  // Those already in flight when the first failed; after it, none until the cooldown ends.
  expect(as.hits.introspection).toBeLessThanOrEqual(4);
  expect(logs.length).toBeLessThanOrEqual(6);
});

test('introspection hanging: 300 junk tokens cost at most one batch of POSTs (then the cooldown)', async () => {
  as.mode.introspection = 'hang';
  const s = await serve(introspecting({ maxInFlight: 4 }));
  const statuses = await flood(300, 10, async (i) => (await call(s, `slow-${i}-${'x'.repeat(30)}`)).status);
  expect(statuses.every((st) => st === 503)).toBe(true);
  expect(as.hits.introspection).toBeLessThanOrEqual(4);
  expect(logs.length).toBeLessThanOrEqual(6);
});

test('introspection: junk tokens are remembered, copies share one POST', async () => {
  const s = await serve(introspecting());
  const statuses = await flood(500, 50, async (i) => (await call(s, `junk-${i % 5}-${'x'.repeat(30)}`)).status);
  expect(statuses.every((st) => st === 401)).toBe(true);
  expect(as.hits.introspection).toBe(5);
  expect(logs.length).toBeLessThanOrEqual(6);
});

test('a 100 MB introspection answer is cut at the cap while it streams: 503, and the server keeps serving', async () => {
  as.mode.introspection = 'huge';
  const s = await serve(introspecting({ timeoutMs: 30_000 }));
  const r = await call(s, `huge-${'x'.repeat(30)}`);
  expect(r.status).toBe(503);
  expect(logs.join('\n')).toContain('answer too large');
  // The client stopped reading at 1 MiB: what the server got written is socket buffers, not 100 MB.
  expect(as.hugeBytesWritten).toBeLessThan(16 * 1024 * 1024);
});

test('a 100 MB JWK Set is cut at the cap too', async () => {
  as.mode.jwks = 'huge';
  const s = await serve({ jwksUri: `${as.issuer}/jwks`, jwksTimeoutMs: 30_000 });
  const k = await key('k1');
  expect((await call(s, await sign(as.issuer, k, 'k1'))).status).toBe(503);
  expect(as.hugeBytesWritten).toBeLessThan(16 * 1024 * 1024);
});
