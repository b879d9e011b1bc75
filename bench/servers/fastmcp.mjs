// fastmcp 4.20.16 (its README's HTTP streaming server: FastMCP + addTool with a zod schema): one echo
// tool. FastMCP speaks only the handshake revisions (2025-11-25 and earlier; its README says so), with a
// session per client by default, as used here. Env: PORT.
import { FastMCP } from 'fastmcp';
import * as z from 'zod/v4';

const server = new FastMCP({ name: 'perf-fastmcp', version: '1.0.0' });
server.addTool({ name: 'echo', description: 'Echo text', parameters: z.object({ text: z.string() }), execute: async ({ text }) => text });
const port = Number(process.env.PORT || 4204);
await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1' } });
console.log(`fastmcp listening ${port}`);
