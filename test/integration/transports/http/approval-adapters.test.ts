/** The approval pages under Express (raw body, or after express.urlencoded()), Fastify and a fetch handler. */
import 'reflect-metadata';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { Server } from 'node:net';
import { IsString } from 'class-validator';
import { Context, ContextServerModule, McpApplication, Tool } from '../../../../src';
import { mcpExpress } from '../../../../src/adapters/express';
import { mcpFastify } from '../../../../src/adapters/fastify';
import { createFetchHandler } from '../../../../src/adapters/fetch';
import { freePort } from '../../../helpers/free-port';
import { modernPost, rawRequest, replyOf } from '../../../helpers/http-fixtures';

class Note {
  @IsString() text!: string;
}

class Notes {
  @Tool({ forms: [Note], asks: { kinds: ['elicit'], fallback: 'approvalPage' } })
  async leave(ctx: Context) {
    const a = await ctx.elicit(Note, 'What should the note say?', { key: 'note' });
    return a.action === 'accept' ? `note: ${a.content.text}` : 'no note';
  }
}

function appAt(port: number) {
  return McpApplication.create({
    name: 'notes',
    version: '1.0.0',
    providers: [Notes],
    modules: [
      ContextServerModule.configure({
        asks: { approvalBaseUrl: `http://127.0.0.1:${port}/mcp/approval` },
        logger: { warn: () => undefined, error: () => undefined },
      }),
    ],
  });
}

type Started = { url: string; close: () => Promise<void> };
const listen = (srv: Server, url: string): Started => ({ url, close: () => new Promise((r) => srv.close(() => r())) });

async function expressServer(urlencoded: boolean): Promise<Started> {
  const port = await freePort();
  const web = express();
  if (urlencoded) web.use(express.urlencoded({ extended: false }));
  web.use(mcpExpress(appAt(port), { path: '/mcp' }));
  const srv = await new Promise<Server>((r) => {
    const s = web.listen(port, '127.0.0.1', () => r(s));
  });
  return listen(srv, `http://127.0.0.1:${port}/mcp`);
}

async function fastifyServer(): Promise<Started> {
  const port = await freePort();
  const f = Fastify();
  await f.register(mcpFastify(appAt(port), { path: '/mcp' }));
  await f.listen({ port, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${port}/mcp`, close: async () => void (await f.close()) };
}

async function honoServer(): Promise<Started> {
  const port = await freePort();
  const hono = new Hono();
  const mcp = createFetchHandler(appAt(port), { path: '/mcp' });
  hono.all('/mcp', (c) => mcp(c.req.raw));
  hono.all('/mcp/approval/:token', (c) => mcp(c.req.raw));
  const srv = await new Promise<Server>((r) => {
    const s = serve({ fetch: hono.fetch, port, hostname: '127.0.0.1' }, () => r(s as unknown as Server));
  });
  return listen(srv, `http://127.0.0.1:${port}/mcp`);
}

describe.each([
  ['express (raw body)', () => expressServer(false)],
  ['express (after express.urlencoded())', () => expressServer(true)],
  ['fastify', fastifyServer],
  ['hono fetch handler', honoServer],
] as const)('%s', (_name, start) => {
  let s: Started;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(() => s.close());

  test('the link opens, the answer is recorded once, the next call continues', async () => {
    const call = async (args: Record<string, unknown>) =>
      replyOf(await modernPost(s.url, 1, 'tools/call', { name: 'leave', arguments: args })).result;
    const first = await call({});
    const { id, url } = first._meta['io.onemodelcontext/approval'];
    expect(url.startsWith(`${s.url}/approval/`)).toBe(true);
    const page = await rawRequest(url, { method: 'GET' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('What should the note say?');
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const answered = await rawRequest(url, { method: 'POST', headers: form, body: 'text=hello&_action=accept' });
    expect(answered.status).toBe(200);
    const again = await rawRequest(url, { method: 'POST', headers: form, body: 'text=again&_action=accept' });
    expect(again.status).toBe(410);
    expect((await call({ approvalId: id })).content[0].text).toBe('note: hello');
  });
});
