// Readiness under load: three instances of our server behind nginx (scripts/fleet.sh, Redis on) carry
// a steady load of two-round flows through nginx, while a separate probe process asks each instance's
// readiness route (GET /ready, a new connection each time, as an orchestrator's probe does) every
// --every ms, on the instance's own port and on its readiness thread's port (`readinessPort`). As a
// peer in the same run, the probe also sends an MCP echo call straight to an instance the same way.
// The route on the instance's port is answered before the request pipeline (no body, no decoding,
// no I/O) but waits for the same event loop as the echo call; the thread's does not. Prints
// p50/p99/max of the three, idle and under load.
// Nothing is asserted about time: read the ratios.
//   node bench/fleet-readiness.mjs [--seconds 10] [--connections 32] [--every 100]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { load } from './lib/targets.mjs';
import { prepare } from './lib/prepare.mjs';
import { runLoad } from './lib/load.mjs';

const { values: a } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    every: { type: 'string', default: '100' },
    idle: { type: 'string', default: '3' },
  },
});
const repo = fileURLToPath(new URL('..', import.meta.url));
const base = 20_000 + Math.floor(Math.random() * 20_000);
const ports = [base + 1, base + 2, base + 3];
const dir = mkdtempSync(join(tmpdir(), 'omc-fleet-ready-'));
const env = {
  ...process.env,
  FLEET_DIR: dir,
  FLEET_ENTRY: 'bench/servers/ours.cjs',
  FLEET_LB_PORT: String(base),
  FLEET_PORT_BASE: String(base + 1),
  FLEET_REDIS_PORT: String(base + 4),
  TOOLS: 'echo,confirm_echo',
  FLEET_READINESS_PORT_BASE: String(base + 5),
};
const fleet = (command) => execFileSync('bash', ['scripts/fleet.sh', command], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });

// The probe: its own process, so the load generator's busy event loop does not delay its timing.
const PROBE = `
const http = require('node:http');
const [ports, every, threadBase] = [JSON.parse(process.argv[1]), Number(process.argv[2]), Number(process.argv[3])];
const echo = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' },
  _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '0' } } } });
const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'echo', 'Content-Length': Buffer.byteLength(echo) };
const samples = { ready: [], thread: [], echo: [] }; const bad = { ready: 0, thread: 0, echo: 0 }; let phase = 'idle';
function once(kind, port) {
  const t0 = process.hrtime.bigint();
  const get = kind !== 'echo';
  const req = http.request({ host: '127.0.0.1', port, agent: false, method: get ? 'GET' : 'POST',
    path: get ? '/ready' : '/mcp', headers: get ? {} : mcpHeaders }, (res) => {
    res.resume();
    res.on('end', () => {
      if (res.statusCode !== 200) bad[kind]++;
      samples[kind].push([phase, Number(process.hrtime.bigint() - t0) / 1e6]);
    });
  });
  req.on('error', () => bad[kind]++);
  req.end(get ? undefined : echo);
}
let i = 0;
const timer = setInterval(() => {
  const n = i++ % ports.length;
  once('ready', ports[n]); once('thread', threadBase + n); once('echo', ports[n]);
}, every);
process.on('message', (m) => {
  if (m === 'load') phase = 'load';
  if (m === 'stop') { clearInterval(timer); setTimeout(() => process.send({ samples, bad }, () => process.exit(0)), 1500); }
});`;

const pct = (xs, p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] : NaN);
function summary(samples, phase) {
  const xs = samples.filter(([p]) => p === phase).map(([, ms]) => ms).sort((x, y) => x - y);
  return { n: xs.length, p50ms: +pct(xs, 0.5).toFixed(2), p99ms: +pct(xs, 0.99).toFixed(2), maxms: +(xs.at(-1) ?? NaN).toFixed(2) };
}

try {
  fleet('up');
  const pid = Number(readFileSync(join(dir, 'i1.pid'), 'utf8'));
  const spec = load('fleet-mrtr', 'ours-fleet', 'mrtr');
  const prepared = await prepare(spec, base);
  const probe = spawn(process.execPath, ['-e', PROBE, JSON.stringify(ports), a.every, String(base + 5)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const result = new Promise((resolve) => probe.once('message', resolve));
  await new Promise((r) => setTimeout(r, Number(a.idle) * 1000));
  probe.send('load');
  const m = await runLoad(spec, { port: base, pid, prepared, connections: Number(a.connections), seconds: Number(a.seconds) });
  probe.send('stop');
  const { samples, bad } = await result;
  const rows = {};
  for (const phase of ['idle', 'load'])
    for (const [kind, label] of [['ready', 'readiness'], ['thread', 'readiness thread'], ['echo', 'direct echo call']])
      rows[`${label}, ${phase}`] = summary(samples[kind], phase);
  console.table(rows);
  const rl = rows['readiness, load'];
  const tl = rows['readiness thread, load'];
  const el = rows['direct echo call, load'];
  console.log(
    `load through nginx: ${Math.round(m.flowsPerSec)} flows/s, request p50 ${m.p50ms.toFixed(1)} ms, p99 ${m.p99ms.toFixed(1)} ms, ${m.non2xx + m.errors + m.mismatches} bad`,
  );
  console.log(
    `under load, readiness / direct echo call: p50 ${(rl.p50ms / el.p50ms).toFixed(2)}×, p99 ${(rl.p99ms / el.p99ms).toFixed(2)}×; ` +
      `readiness under load / idle: p99 ${(rl.p99ms / rows['readiness, idle'].p99ms).toFixed(2)}×; ` +
      `readiness not 200: ${bad.ready}, readiness answers over 1 s: ${samples.ready.filter(([, ms]) => ms > 1000).length}`,
  );
  console.log(
    `under load, readiness thread / direct echo call: p50 ${(tl.p50ms / el.p50ms).toFixed(2)}×, p99 ${(tl.p99ms / el.p99ms).toFixed(2)}×; ` +
      `thread not 200: ${bad.thread}, thread answers over 1 s: ${samples.thread.filter(([, ms]) => ms > 1000).length}`,
  );
} finally {
  try {
    fleet('down');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
