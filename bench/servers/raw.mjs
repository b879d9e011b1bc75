// The ceiling: plain node:http that parses the JSON-RPC body, checks method/name/arguments and
// writes the echo result (or test_simple_text's fixed text). No header, schema or _meta checks: what Node itself costs per exchange.
import { createServer } from 'node:http';

const port = Number(process.env.PORT || 4204);
const LIST = { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }], resultType: 'complete' };

const FIXED_TEXT = 'This is a simple text response for testing.';

function send(res, status, obj) {
  const out = JSON.stringify(obj);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
  res.end(out);
}

createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let msg;
    try { msg = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {
      return send(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    if (msg.method === 'tools/call' && msg.params?.name === 'echo' && typeof msg.params?.arguments?.text === 'string') {
      return send(res, 200, { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: msg.params.arguments.text }], resultType: 'complete' } });
    }
    if (msg.method === 'tools/call' && msg.params?.name === 'test_simple_text') {
      return send(res, 200, { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: FIXED_TEXT }], resultType: 'complete' } });
    }
    if (msg.method === 'tools/list') return send(res, 200, { jsonrpc: '2.0', id: msg.id, result: LIST });
    send(res, 200, { jsonrpc: '2.0', id: msg.id ?? null, error: { code: -32601, message: 'Method not found' } });
  });
}).listen(port, '127.0.0.1', () => console.log(`raw listening ${port}`));
