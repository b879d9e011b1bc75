// Official SDK v1 (@modelcontextprotocol/sdk 1.32.2), stateless Streamable HTTP with enableJsonResponse
// (legacy 2025-11-25 wire): a fresh McpServer + transport per request, the SDK's documented idiom.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';

const port = Number(process.env.PORT || 4203);
createServer(async (req, res) => {
  const server = new McpServer({ name: 'perf-v1', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo text', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => { transport.close(); server.close(); });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch (e) {
    console.error(e);
    if (!res.headersSent) res.writeHead(500).end();
  }
}).listen(port, '127.0.0.1', () => console.log(`sdk-v1 listening ${port}`));
