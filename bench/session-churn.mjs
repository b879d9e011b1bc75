/**
 * The Inspector-CLI pattern at default options (issue 39): batches of legacy sessions that each
 * initialize, make one call and walk away without DELETE, `--gap` ms apart. Prints how many runs
 * were served and refused per batch (a refusal is 429 + Retry-After) and the heap after each batch.
 * Asserts nothing. `npm run build` first; `node --expose-gc bench/session-churn.mjs --batches 3 --runs 1000 --gap 6000`.
 */
import { createRequire } from 'node:module';
import { request } from 'node:http';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const omc = require('../dist/cjs/index.js');
const { values } = parseArgs({
  options: { batches: { type: 'string', default: '3' }, runs: { type: 'string', default: '1000' }, gap: { type: 'string', default: '20000' } },
});
const [batches, runs, gap] = [Number(values.batches), Number(values.runs), Number(values.gap)];

function post(url, headers, body) {
  return new Promise((resolve, reject) => {
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers };
    const req = request(url, { method: 'POST', headers: h }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const app = omc.McpApplication.create({
  name: 'churn',
  version: '1.0.0',
  providers: [],
  modules: [omc.ContextServerModule.configure({ logger: { warn() {}, error() {} } })],
});
app.addTool({ name: 'echo', description: 'echo', input: { type: 'object' }, handler: (i) => String(i.text) });
const server = await omc.serveHttp(app, { port: 0 });
const V = { 'mcp-protocol-version': '2025-11-25' };
const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cli', version: '1' } };
const heapMb = () => (globalThis.gc?.(), (process.memoryUsage().heapUsed / 1048576).toFixed(1));
console.log(`default HttpOptions; heap before: ${heapMb()} MB`);
for (let b = 1; b <= batches; b++) {
  const tally = { served: 0, refused: 0 };
  const started = Date.now();
  for (let i = 0; i < runs; i++) {
    const r = await post(server.url, V, { jsonrpc: '2.0', id: 0, method: 'initialize', params: init });
    if (r.status !== 200) {
      tally.refused++;
      continue;
    }
    const on = { ...V, 'mcp-session-id': r.headers['mcp-session-id'] };
    await post(server.url, on, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const c = await post(server.url, on, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });
    if (c.status === 200 && c.text.includes('"x"')) tally.served++;
    else tally.refused++;
  }
  console.log(`batch ${b}: ${tally.served} served, ${tally.refused} refused in ${Date.now() - started} ms; heap ${heapMb()} MB`);
  if (b < batches) await new Promise((r) => setTimeout(r, gap));
}
await server.close({ deadlineMs: 1000 });
