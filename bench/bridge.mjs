// `npm run bench:bridge` (after `npm run build`): calls/s through `onemodelcontext bridge` against
// calling the upstream directly, and the cost of a bridged ask round — both measured in this run.
// Upstream: our bench server (servers/ours.cjs: echo, confirm_echo) over HTTP. Bridges: one speaking
// 2026-07-28 upstream (input_required passed through), one speaking 2025-11-25 (each call parked
// while its caller answers). Load: `--concurrency` keep-alive clients for `--seconds` per row.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { modernBody, modernHeaders, messageOf } from './lib/wire.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 3);
const CONCURRENCY = arg('concurrency', 8);
const root = fileURLToPath(new URL('..', import.meta.url));
const procs = [];

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Starts a process and resolves once its output contains `ready`. */
function start(args, env, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(child);
    let out = '';
    const seen = (d) => {
      out += d;
      if (out.includes(ready)) resolve(child);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out.slice(-400)}`)));
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });
function post(port, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(messageOf(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const callBody = (extra = {}, id = 1) => modernBody('tools/call', { name: 'echo', arguments: { text: 'hi' }, ...extra }, id);

/** One echo call; throws unless the upstream's answer came back. */
async function echo(port) {
  const m = await post(port, modernHeaders('tools/call', 'echo'), callBody());
  if (m.result?.content?.[0]?.text !== 'hi') throw new Error(`bad echo: ${JSON.stringify(m).slice(0, 200)}`);
}

/** One confirm_echo flow: round 1 asks, round 2 answers; throws unless it completed. */
async function askFlow(port) {
  const h = modernHeaders('tools/call', 'confirm_echo');
  const params = { name: 'confirm_echo', arguments: { text: 'hi' } };
  const first = await post(port, h, modernBody('tools/call', params));
  const r = first.result;
  if (r?.resultType !== 'input_required') throw new Error(`no input round: ${JSON.stringify(first).slice(0, 200)}`);
  const [key] = Object.keys(r.inputRequests);
  const answer = { [key]: { action: 'accept', content: { confirm: true } } };
  const done = await post(port, h, modernBody('tools/call', { ...params, requestState: r.requestState, inputResponses: answer }, 2));
  if (done.result?.content?.[0]?.text !== 'hi') throw new Error(`flow did not complete: ${JSON.stringify(done).slice(0, 200)}`);
}

/** Operations per second with CONCURRENCY workers for SECONDS (after a short warm-up). */
async function rate(op, port) {
  const until = Date.now() + 500;
  while (Date.now() < until) await op(port);
  let count = 0;
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        await op(port);
        count++;
      }
    }),
  );
  return count / SECONDS;
}

try {
  const [up, modern, legacy] = [await freePort(), await freePort(), await freePort()];
  await start(['bench/servers/ours.cjs'], { PORT: String(up), TOOLS: 'echo,confirm_echo' }, 'ours listening');
  const url = `http://127.0.0.1:${up}/mcp`;
  const bin = 'bin/onemodelcontext.js';
  await start([bin, 'bridge', '--url', url, '--port', String(modern)], { PORT: '' }, 'bridge listening');
  await start([bin, 'bridge', '--url', url, '--port', String(legacy), '--upstream-version', '2025-11-25'], { PORT: '' }, 'bridge listening');

  const rows = [];
  for (const [what, op] of [['echo calls/s', echo], ['ask flows/s (2 rounds)', askFlow]]) {
    const direct = await rate(op, up);
    const viaModern = await rate(op, modern);
    const viaLegacy = await rate(op, legacy);
    rows.push({ what, direct, viaModern, viaLegacy });
  }
  const f = (n) => n.toFixed(0).padStart(7);
  const r = (n, d) => `${(n / d).toFixed(2)}×`.padStart(7);
  console.log(`bridge bench: ${CONCURRENCY} concurrent clients, ${SECONDS} s per row, one machine (ratios are the result)`);
  console.log('                          direct   bridge→2026 (ratio)   bridge→2025-11-25 (ratio)');
  for (const row of rows) {
    console.log(`${row.what.padEnd(24)} ${f(row.direct)}   ${f(row.viaModern)} (${r(row.viaModern, row.direct)})        ${f(row.viaLegacy)} (${r(row.viaLegacy, row.direct)})`);
  }
  const flow = rows[1];
  const ms = (perSecond) => (1000 * CONCURRENCY) / perSecond;
  console.log(
    `bridged ask flow, extra latency per flow: ${(ms(flow.viaModern) - ms(flow.direct)).toFixed(2)} ms (2026 upstream, passed through), ` +
      `${(ms(flow.viaLegacy) - ms(flow.direct)).toFixed(2)} ms (legacy upstream, parked)`,
  );
} finally {
  for (const p of procs) p.kill('SIGTERM');
  agent.destroy();
}
