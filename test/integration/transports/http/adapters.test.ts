/** Express, Fastify and the fetch handler (via Hono on @hono/node-server) serve the same endpoint. */
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { AddressInfo, Server } from 'node:net';
import { mcpExpress } from '../../../../src/adapters/express';
import { mcpFastify } from '../../../../src/adapters/fastify';
import { createFetchHandler } from '../../../../src/adapters/fetch';
import {
  JSON_HEADERS,
  leaveAfterFirstChunk,
  makeApp,
  MODERN,
  modernMeta,
  modernPost,
  parseSse,
  probe,
  RawLegacyClient,
  rawRequest,
  streamingRequest,
  waitFor,
} from '../../../helpers/http-fixtures';

type Started = { url: string; close: () => Promise<void> };

async function expressServer(withJsonParser: boolean): Promise<Started> {
  const web = express();
  if (withJsonParser) web.use(express.json());
  web.use(mcpExpress(makeApp(), { path: '/mcp' }));
  web.get('/health', (_req, res) => void res.send('ok'));
  const s = await new Promise<Server>((r) => {
    const srv = web.listen(0, '127.0.0.1', () => r(srv));
  });
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`, close: () => new Promise((r) => s.close(() => r())) };
}

async function fastifyServer(): Promise<Started> {
  const f = Fastify();
  await f.register(mcpFastify(makeApp(), { path: '/mcp' }));
  f.post('/other', async (req) => ({ echoed: req.body }));
  await f.listen({ port: 0, host: '127.0.0.1' });
  const port = (f.server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/mcp`, close: async () => void (await f.close()) };
}

async function honoServer(): Promise<Started> {
  const hono = new Hono();
  const mcp = createFetchHandler(makeApp(), { path: '/mcp' });
  hono.all('/mcp', (c) => mcp(c.req.raw));
  const s = await new Promise<Server>((r) => {
    const srv = serve({ fetch: hono.fetch, port: 0, hostname: '127.0.0.1' }, () => r(srv as unknown as Server));
  });
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`, close: () => new Promise((r) => s.close(() => r())) };
}

const servers: Array<[string, () => Promise<Started>]> = [
  ['express (raw body)', () => expressServer(false)],
  ['express (after express.json())', () => expressServer(true)],
  ['fastify', fastifyServer],
  ['hono fetch handler', honoServer],
];

describe.each(servers)('%s', (_name, start) => {
  let s: Started;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(async () => {
    await s.close();
  });

  test('modern JSON, SSE progress, header mismatch, 405 on GET', async () => {
    const list = await modernPost(s.url, 1, 'tools/list');
    expect(list.status).toBe(200);
    expect(list.json().result.tools.length).toBeGreaterThan(3);
    const slow = await modernPost(s.url, 2, 'tools/call', {
      name: 'slow',
      arguments: { steps: 2 },
      _meta: { progressToken: 'p' },
    });
    expect(slow.headers['content-type']).toBe('text/event-stream');
    expect(slow.events().map((e: any) => e.params?.progress ?? e.result?.content[0].text)).toEqual([1, 2, 'done 2']);
    const bad = await modernPost(
      s.url,
      3,
      'tools/call',
      { name: 'echo', arguments: { text: 'x' } },
      { 'Mcp-Name': 'nope' },
    );
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ id: 3, error: { code: -32020 } });
    expect((await rawRequest(s.url, { method: 'GET', headers: { Accept: 'text/event-stream' } })).status).toBe(405);
  });

  test('rebinding refused; oversize refused; parse errors answered', async () => {
    expect(
      (
        await modernPost(
          s.url,
          4,
          'server/discover',
          {},
          { Host: 'evil.example.com', Origin: 'http://evil.example.com' },
        )
      ).status,
    ).toBe(403);
    const parse = await rawRequest(s.url, { headers: JSON_HEADERS, body: '{"jsonrpc":' });
    expect(parse.status).toBe(400);
    expect((await modernPost(s.url, 5, 'tools/list')).status).toBe(200);
  });

  test('legacy session with an elicitation answered on the POST stream', async () => {
    const c = new RawLegacyClient(s.url);
    expect((await c.initialize({ elicitation: {} })).status).toBe(200);
    expect(c.sessionId).toBeDefined();
    const r = await streamingRequest(
      s.url,
      {
        headers: c.headers(),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 6,
          method: 'tools/call',
          params: { name: 'greet', arguments: { text: 'x' } },
        }),
      },
      (ev) => {
        if (ev.method === 'elicitation/create')
          void c.post({ jsonrpc: '2.0', id: ev.id, result: { action: 'accept', content: { name: 'Lin' } } });
      },
    );
    expect(r.events.pop()).toMatchObject({ id: 6, result: { content: [{ text: 'Hello, Lin!' }] } });
    expect((await rawRequest(s.url, { method: 'DELETE', headers: c.headers() })).status).toBe(200);
  });

  test('closing the SSE response cancels the handler', async () => {
    const before = probe.aborted;
    const received = await leaveAfterFirstChunk(
      s.url,
      { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'hang' },
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'hang', arguments: { text: 'x' }, _meta: { ...modernMeta(), progressToken: 1 } },
      }),
    );
    await waitFor(() => probe.aborted > before);
    expect(parseSse(received)[0].params.progress).toBe(1);
  });
});

test('fastify: the plugin leaves other routes their JSON parser', async () => {
  const s = await fastifyServer();
  const r = await rawRequest(s.url.replace('/mcp', '/other'), {
    headers: { 'Content-Type': 'application/json' },
    body: '{"a":1}',
  });
  expect(JSON.parse(r.text)).toEqual({ echoed: { a: 1 } });
  await s.close();
});

test('fetch handler directly: a 4 MiB+1 body is 413, other paths 404', async () => {
  const mcp = createFetchHandler(makeApp());
  const big = await mcp(
    new Request('http://localhost:3000/mcp', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: 'x'.repeat(4 * 1024 * 1024 + 1),
    }),
  );
  expect(big.status).toBe(413);
  expect((await mcp(new Request('http://localhost:3000/elsewhere'))).status).toBe(404);
  const ok = await mcp(new Request('http://localhost:3000/mcp', {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/list' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } }),
  }));
  expect(ok.status).toBe(200);
});

test('express: maxBodyBytes holds behind a parser whose limit is larger (issue 31, N9)', async () => {
  const web = express();
  web.use(express.json({ limit: '20mb' }));
  web.use(mcpExpress(makeApp(), { path: '/mcp', maxBodyBytes: 1024 * 1024 }));
  const srv = await new Promise<Server>((r) => {
    const s = web.listen(0, '127.0.0.1', () => r(s));
  });
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/mcp`;
  try {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x'.repeat(6 * 1024 * 1024) }, _meta: modernMeta() },
    });
    const headers = { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN };
    // Declared length, and chunked (no length: the parsed body is measured).
    const length = { 'Content-Length': String(Buffer.byteLength(body)) };
    const declared = await rawRequest(url, { headers: { ...headers, ...length }, body });
    expect(declared.status).toBe(413);
    const chunked = await rawRequest(url, { headers, body });
    expect(chunked.status).toBe(413);
    expect(chunked.json().error.message).toContain('larger than 1048576 bytes');
    // Under the cap it is served as before.
    const small = await modernPost(url, 2, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(1000) } });
    expect(small.status).toBe(200);
  } finally {
    await new Promise<void>((r) => srv.close(() => r()));
  }
});
