// mcp-use 2.5.2 (its README's server: MCPServer + server.tool with a zod input, listen): one echo tool.
// Stateless on both wires (a fresh SDK McpServer per request; 2025-era requests over a session-less
// transport). Env: PORT.
import { MCPServer } from 'mcp-use';
import * as z from 'zod/v4';

const server = new MCPServer({ name: 'perf-mcp-use', version: '1.0.0', host: '127.0.0.1' });
server.tool({ name: 'echo', description: 'Echo text', inputSchema: z.object({ text: z.string() }) },
  async ({ text }) => ({ content: [{ type: 'text', text }] }));
const { port } = await server.listen(Number(process.env.PORT || 4203), { host: '127.0.0.1' });
console.log(`mcp-use listening ${port}`);
