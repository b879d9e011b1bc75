// Issue 38's fixture, the official SDK v2 (2.4.0) over stdio: NTOOLS tools, each with its own
// three-field zod schema (the SDK's documented pattern). Env: NTOOLS.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

const ntools = Number(process.env.NTOOLS || 1);
const server = new McpServer({ name: 'scale-sdk-v2', version: '1.0.0' });
for (let i = 0; i < ntools; i++) {
  const name = `tool_${String(i).padStart(4, '0')}`;
  server.registerTool(name, {
    description: `Generated tool ${name}`,
    inputSchema: z.object({ text: z.string().max(200), count: z.number().int().min(0).optional(), label: z.string().optional() }),
  }, async ({ text }) => ({ content: [{ type: 'text', text: `${name}:${text}` }] }));
}
await server.connect(new StdioServerTransport());
