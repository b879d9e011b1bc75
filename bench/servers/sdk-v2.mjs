// Official SDK v2 on its recommended Node path: createMcpHandler(factory, {responseMode:'json'}) +
// toNodeHandler, with the README's localhost Host/Origin guards. The factory builds a McpServer per
// request with inline zod schemas, as the SDK docs show. Env: PORT, TOOLS, NTOOLS (as ours.cjs).
// confirm_echo: round 1 inputRequired + requestState from createRequestStateCodec; round 2 verified.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createMcpHandler, McpServer, createRequestStateCodec, inputRequired, acceptedContent } from '@modelcontextprotocol/server';
import { toNodeHandler, localhostHostValidation, localhostOriginValidation } from '@modelcontextprotocol/node';
import * as z from 'zod/v4';

const port = Number(process.env.PORT || 4202);
const tools = new Set((process.env.TOOLS || 'echo').split(','));
const ntools = Number(process.env.NTOOLS || 1);
const extraNames = Array.from({ length: Math.max(0, ntools - 1) }, (_, i) => `tool_${String(i + 1).padStart(3, '0')}`);
const codec = createRequestStateCodec({ key: crypto.getRandomValues(new Uint8Array(32)) });
// Same question as ours (ctx.confirm), so one client answers both.
const confirmSchema = { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm', default: false } }, required: ['confirm'] };

function factory() {
  const server = new McpServer({ name: 'perf-v2', version: '1.0.0' }, { requestState: { verify: codec.verify } });
  if (tools.has('echo')) {
    server.registerTool('echo', { description: 'Echo text', inputSchema: z.object({ text: z.string() }) },
      async ({ text }) => ({ content: [{ type: 'text', text }] }));
  }
  if (tools.has('fixed')) {
    // The conformance server's test_simple_text: no inputSchema, so the SDK validates nothing (its best case).
    server.registerTool('test_simple_text', { description: 'Tests simple text content response' },
      async () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] }));
  }
  if (tools.has('form10')) {
    server.registerTool('signup', {
      description: 'Sign up (ten validated fields)',
      inputSchema: z.object({
        name: z.string().min(1).max(80), email: z.email(), age: z.number().int().min(0).max(150),
        country: z.enum(['DE', 'FR', 'NL', 'US']), city: z.string(), zip: z.string().regex(/^\d{5}$/),
        newsletter: z.boolean(), score: z.number().min(0).max(100), tags: z.array(z.string()), note: z.string().max(200).optional(),
      }),
    }, async ({ name, email }) => ({ content: [{ type: 'text', text: `${name} <${email}>` }] }));
  }
  if (tools.has('confirm_echo')) {
    server.registerTool('confirm_echo', { description: 'Echo after a confirmation round', inputSchema: z.object({ text: z.string() }) },
      async ({ text }, ctx) => {
        const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
        const state = ctx.mcpReq.requestState();
        if (answer === undefined || state === undefined) {
          return inputRequired({
            inputRequests: { confirm: inputRequired.elicit({ message: `Echo "${text}"?`, requestedSchema: confirmSchema }) },
            requestState: await codec.mint({ text, nonce: randomUUID() }),
          });
        }
        if (state.text !== text || answer.confirm !== true) throw new Error('state mismatch');
        return { content: [{ type: 'text', text }] };
      });
  }
  for (const name of extraNames) {
    server.registerTool(name, { description: `Generated tool ${name}`, inputSchema: z.object({ text: z.string(), n: z.number().optional() }) },
      async ({ text }) => ({ content: [{ type: 'text', text: `${name}:${text}` }] }));
  }
  return server;
}

const node = toNodeHandler(createMcpHandler(factory, { responseMode: 'json', onerror: (e) => console.error('onerror', e?.message) }));
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  void node(req, res);
}).listen(port, '127.0.0.1', () => console.log(`sdk-v2 listening ${port} tools=${ntools}`));
