// The load of bench/request-instructions.sh: N requests (or N two-round flows) over keep-alive
// sockets, C at a time, every response checked (exits non-zero on the first wrong one).
//   node bench/lib/instr-client.mjs <port> echo|fixed|mrtr <n> [concurrency 8]
import http from 'node:http';
import { modernBody, modernHeaders } from './wire.mjs';

const [port, kind, n, conc] = [Number(process.argv[2]), process.argv[3], Number(process.argv[4]), Number(process.argv[5] ?? 8)];
const agent = new http.Agent({ keepAlive: true, maxSockets: conc });
const post = (name, text) => new Promise((ok, fail) => {
  const headers = { ...modernHeaders('tools/call', name), 'content-length': Buffer.byteLength(text) };
  const req = http.request({ port, host: '127.0.0.1', path: '/mcp', method: 'POST', agent, headers }, (res) => {
    const chunks = [];
    res.on('data', (d) => chunks.push(d));
    res.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      if (res.statusCode === 200) ok(JSON.parse(body));
      else fail(new Error(`${res.statusCode} ${body}`));
    });
  });
  req.on('error', fail);
  req.end(text);
});
const ACCEPT = { confirm: { action: 'accept', content: { confirm: true } } };
const one = {
  mrtr: async () => {
    const call = { name: 'confirm_echo', arguments: { text: 'hello' } };
    const r1 = (await post('confirm_echo', modernBody('tools/call', call))).result;
    const r2 = (await post('confirm_echo', modernBody('tools/call', { ...call, inputResponses: ACCEPT, requestState: r1.requestState }))).result;
    if (r2.content?.[0]?.text !== 'hello') throw new Error(`bad flow ${JSON.stringify(r2)}`);
  },
  fixed: async () => {
    const r = await post('test_simple_text', modernBody('tools/call', { name: 'test_simple_text', arguments: {} }));
    if (typeof r.result?.content?.[0]?.text !== 'string') throw new Error(`bad ${JSON.stringify(r)}`);
  },
  echo: async () => {
    const r = await post('echo', modernBody('tools/call', { name: 'echo', arguments: { text: 'hello' } }));
    if (r.result?.content?.[0]?.text !== 'hello') throw new Error(`bad ${JSON.stringify(r)}`);
  },
}[kind];
let left = n;
await Promise.all(Array.from({ length: conc }, async () => { while (left-- > 0) await one(); }));
agent.destroy();
