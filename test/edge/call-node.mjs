// Node's side of the edge example: imports build/edge/app.js (the ESM build of onemodelcontext/web)
// and calls its fetch handler with a 2026-07-28 tools/call of `greet`; prints the JSON-RPC reply.
// Run with --disallow-code-generation-from-strings to take the no-code-generation path.
import worker from '../../build/edge/app.js';

const [name] = process.argv.slice(2);
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'node', version: '1.0.0' },
};
const response = await worker.fetch(
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'greet',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'greet', arguments: { name: JSON.parse(name) }, _meta: meta },
    }),
  }),
);
console.log(JSON.stringify(await response.json()));
