/**
 * Interop: ContextClient against servers written with the official SDKs — v2
 * (`@modelcontextprotocol/server`, 2026-07-28, its own input_required flows) and v1
 * (`@modelcontextprotocol/sdk`, legacy Streamable HTTP with real elicitation requests).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { callInfo, ContextClient } from '../../../src';

describe('official v2 server (2026-07-28, input_required)', () => {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'v2-peer', version: '2.0.0' });
    server.registerTool(
      'add',
      { description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }) },
      async ({ a, b }) => ({
        content: [{ type: 'text', text: String(a + b) }],
      }),
    );
    server.registerTool(
      'provision',
      { description: 'Asks two things at once', inputSchema: z.object({}) },
      async (_args, ctx) => {
        const name = acceptedContent(ctx.mcpReq.inputResponses, 'name', z.object({ name: z.string() }));
        const region = acceptedContent(ctx.mcpReq.inputResponses, 'region', z.object({ region: z.string() }));
        if (name === undefined || region === undefined) {
          return inputRequired({
            inputRequests: {
              ...(name === undefined && {
                name: inputRequired.elicit({
                  message: 'Database name?',
                  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
                }),
              }),
              ...(region === undefined && {
                region: inputRequired.elicit({
                  message: 'Which region?',
                  requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
                }),
              }),
            },
          });
        }
        return { content: [{ type: 'text', text: `Provisioned ${name.name} in ${region.region}` }] };
      },
    );
    return server;
  });
  const fetchThroughHandler: typeof fetch = (input, init) => handler.fetch(new Request(input as string, init));
  let client: ContextClient;

  beforeAll(async () => {
    client = await ContextClient.connect(
      { url: 'http://127.0.0.1/mcp', fetch: fetchThroughHandler },
      {
        elicitation: (p) => ({
          action: 'accept',
          content: (p.message === 'Which region?' ? { region: 'eu-west-1' } : { name: 'analytics' }) as Record<
            string,
            string
          >,
        }),
      },
    );
  });
  afterAll(async () => {
    await client.close();
    await handler.close();
  });

  test('auto negotiates 2026-07-28 through server/discover', () => {
    expect(client.era).toBe('modern');
    expect(client.server.serverInfo).toMatchObject({ name: 'v2-peer' });
  });

  test('lists and calls a tool', async () => {
    expect((await client.listTools()).map((t) => t.name)).toEqual(['add', 'provision']);
    expect((await client.callTool('add', { a: 2, b: 3 })).content).toEqual([{ type: 'text', text: '5' }]);
  });

  test('answers the SDK’s parallel input requests in one round', async () => {
    const result = await client.callTool('provision', {});
    expect(result.content).toEqual([{ type: 'text', text: 'Provisioned analytics in eu-west-1' }]);
    expect(callInfo(result)).toMatchObject({ rounds: 2, asks: 2 });
  });
});

describe('official v1 server (legacy Streamable HTTP with sessions)', () => {
  let http: Server;
  let url: string;
  const transports = new Map<string, V1HttpTransport>();
  const elicited: unknown[] = [];
  let deletes = 0;

  beforeAll(async () => {
    http = createServer(async (req, res) => {
      if (req.method === 'DELETE') deletes++;
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      const sid = req.headers['mcp-session-id'] as string | undefined;
      let transport = sid ? transports.get(sid) : undefined;
      if (!transport) {
        if (body?.method !== 'initialize') {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(
              JSON.stringify({
                jsonrpc: '2.0',
                id: null,
                error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
              }),
            );
          return;
        }
        transport = new V1HttpTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (id) => void transports.set(id, transport!),
        });
        const server = new V1McpServer({ name: 'v1-peer', version: '1.0.0' }, { capabilities: { logging: {} } });
        server.registerTool('greet', { description: 'Asks a name', inputSchema: {} }, async () => {
          const answer = await server.server.elicitInput({
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          });
          elicited.push(answer);
          return {
            content: [
              {
                type: 'text',
                text: answer.action === 'accept' ? `Hello, ${String(answer.content?.name)}!` : 'declined',
              },
            ],
          };
        });
        server.registerTool('echo', { description: 'Echo', inputSchema: { text: z.string() } }, async ({ text }) => ({
          content: [{ type: 'text', text }],
        }));
        await server.connect(transport);
      }
      await transport.handleRequest(req, res, body);
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    for (const t of transports.values()) await t.close();
    await new Promise((r) => http.close(r));
  });

  test('auto falls back to initialize, answers a real elicitation request, and deletes the session', async () => {
    const client = await ContextClient.connect(
      { url },
      { elicitation: () => ({ action: 'accept', content: { name: 'Grace' } }) },
    );
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.server.serverInfo).toMatchObject({ name: 'v1-peer' });
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual(['echo', 'greet']);
    const result = await client.callTool('greet', {});
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Grace!' }]);
    expect(callInfo(result)).toMatchObject({ rounds: 1, asks: 1, era: 'legacy' });
    expect((await client.callTool('echo', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'hi' }]);
    await client.ping();
    expect(transports.size).toBe(1);
    await client.close();
    expect(deletes).toBe(1);
  });

  test('an elicitation without a handler is refused to the server, not hung', async () => {
    const client = await ContextClient.connect({ url }, { protocolVersion: '2025-11-25' });
    // No elicitation capability declared: the v1 server refuses to ask and the tool reports an error.
    const result = await client.callTool('greet', {}).catch((e: unknown) => e);
    expect(JSON.stringify(result)).toMatch(/elicitation|capabilit/i);
    await client.close();
  });
});
