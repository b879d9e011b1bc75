// Official SDK v1 with sessions (the SDK README's stateful pattern): one transport + McpServer per
// initialized session, kept in a map. Only used to compare memory per idle legacy session.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';

createRequire(import.meta.url)('./mem-probe.cjs');
const port = Number(process.env.PORT || 4232);
const transports = new Map();

function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => { try { resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))); } catch (e) { reject(e); } });
    req.on('error', reject);
  });
}

createServer(async (req, res) => {
  try {
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    let transport = transports.get(req.headers['mcp-session-id']);
    if (!transport && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(), enableJsonResponse: true,
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => transports.delete(transport.sessionId);
      const server = new McpServer({ name: 'perf-v1-sessions', version: '1.0.0' });
      server.registerTool('echo', { description: 'Echo text', inputSchema: { text: z.string() } },
        async ({ text }) => ({ content: [{ type: 'text', text }] }));
      await server.connect(transport);
    }
    if (!transport) return void res.writeHead(400).end('no session');
    await transport.handleRequest(req, res, body);
  } catch (e) {
    console.error(e);
    if (!res.headersSent) res.writeHead(500).end();
  }
}).listen(port, '127.0.0.1', () => console.log(`sdk-v1-sessions listening ${port}`));
