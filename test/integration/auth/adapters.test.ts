/** Express, Fastify and the fetch handler (Hono) serve the metadata, challenge and accept tokens like serveHttp. */
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { Server } from 'node:net';
import { mcpExpress } from '../../../src/adapters/express';
import { mcpFastify } from '../../../src/adapters/fastify';
import { createFetchHandler } from '../../../src/adapters/fetch';
import { freePort } from '../../helpers/free-port';
import { modernPost, rawRequest } from '../../helpers/http-fixtures';
import { startOidcProvider, type OidcProviderHandle } from '../../helpers/oidc-provider';
import { alice, bob, protectedApp, SCOPES } from './protected-app';

type Started = { port: number; close: () => Promise<void> };
type Start = (port: number, issuer: string) => Promise<Started>;

const listening = (s: Server, port: number): Started => ({ port, close: () => new Promise((r) => s.close(() => r())) });

const starts: Array<[string, Start]> = [
  [
    'express',
    async (port, issuer) => {
      const web = express();
      web.use(mcpExpress(protectedApp(`http://127.0.0.1:${port}/mcp`, issuer), { path: '/mcp', port }));
      return new Promise((r) => {
        const s = web.listen(port, '127.0.0.1', () => r(listening(s, port)));
      });
    },
  ],
  [
    'fastify',
    async (port, issuer) => {
      const f = Fastify();
      await f.register(mcpFastify(protectedApp(`http://127.0.0.1:${port}/mcp`, issuer), { path: '/mcp', port }));
      await f.listen({ port, host: '127.0.0.1' });
      return { port, close: async () => void (await f.close()) };
    },
  ],
  [
    'fetch (Hono)',
    async (port, issuer) => {
      const hono = new Hono();
      const mcp = createFetchHandler(protectedApp(`http://127.0.0.1:${port}/mcp`, issuer), { path: '/mcp', port });
      hono.all('/mcp', (c) => mcp(c.req.raw));
      hono.all('/.well-known/oauth-protected-resource/*', (c) => mcp(c.req.raw));
      hono.all('/.well-known/oauth-protected-resource', (c) => mcp(c.req.raw));
      return new Promise((r) => {
        const s = serve({ fetch: hono.fetch, port, hostname: '127.0.0.1' }, () => r(listening(s as never, port)));
      });
    },
  ],
];

let as: OidcProviderHandle;
const resources: string[] = [];
const ports: number[] = [];
beforeAll(async () => {
  for (let i = 0; i < starts.length; i++) ports.push(await freePort());
  for (const p of ports) resources.push(`http://127.0.0.1:${p}/mcp`);
  as = await startOidcProvider({ resources, scopes: SCOPES, clients: [alice, bob] });
});
afterAll(async () => as?.stop());

describe.each(starts.map(([name, start], i) => [name, start, i] as const))('%s', (_name, start, i) => {
  let server: Started;
  beforeAll(async () => {
    server = await start(ports[i]!, as.issuer);
  });
  afterAll(async () => server?.close());

  test.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])(
    'metadata at %s',
    async (path) => {
      const r = await rawRequest(`http://127.0.0.1:${server.port}${path}`, { method: 'GET' });
      expect(r.status).toBe(200);
      expect(r.json()).toMatchObject({ resource: resources[i], authorization_servers: [as.issuer] });
    },
  );

  test('401 names the metadata; a token for this resource passes; one for another resource does not', async () => {
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const call = { name: 'whoami', arguments: { text: 'x' } };
    const refused = await modernPost(url, 1, 'tools/call', call);
    expect(refused.status).toBe(401);
    expect(String(refused.headers['www-authenticate'])).toContain(
      `resource_metadata="http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource/mcp"`,
    );
    const token = await as.token(alice, { resource: resources[i] });
    const ok = await modernPost(url, 2, 'tools/call', call, { Authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(ok.json().result.content[0].text).toContain(`"id":"sub:alice@${as.issuer}"`);
    const elsewhere = await as.token(alice, { resource: resources[(i + 1) % resources.length] });
    const wrong = await modernPost(url, 3, 'tools/call', call, { Authorization: `Bearer ${elsewhere}` });
    expect(wrong.status).toBe(401);
    expect(String(wrong.headers['www-authenticate'])).toContain('error="invalid_token"');
  });
});
