// The field's own benchmark workload (mcp-use's benchmark.md), run here against us and SDK v2 (issue 34):
// one echo tool; each virtual user sends one tools/list per nine tools/call, one request in flight, on its
// own keep-alive connection; users ramp from 1 to 50, then hold; a fresh server process per slot; three
// rounds with the server order rotated; medians. Every response is checked (echoed text, listed tool).
// The load generator runs here, pinned to CPU 1 (its CPU share is printed); servers on CPU 0. Read the
// server CPU per operation first on a shared machine.
//
//   npm run build && node bench/field-workload.mjs [--rounds 3] [--ramp 5] [--hold 10] [--users 50]
//     [--wire 2026-07-28,2025-11-25] [--launches 100 --warm 10] [--size]
//   --launches N: cold launch, N timed starts (after --warm untimed ones) to the first answered tools/call.
//   --size: installed size of a minimal server app's production dependencies, from node_modules.
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { median } from './lib/stats.mjs';
import { CLK_TCK, pinSelf, procStat, startServer, stopServer, waitUntil } from './lib/procs.mjs';
import { LEGACY, MODERN, legacyBody, legacyHeaders, messageOf, modernBody, modernHeaders, listening } from './lib/wire.mjs';
import { installedSize } from './lib/installed-size.mjs';

const { values: a } = parseArgs({ options: {
  rounds: { type: 'string', default: '3' }, ramp: { type: 'string', default: '5' }, hold: { type: 'string', default: '10' },
  users: { type: 'string', default: '50' }, wire: { type: 'string', default: `${MODERN},${LEGACY}` },
  launches: { type: 'string', default: '0' }, warm: { type: 'string', default: '10' }, size: { type: 'boolean', default: false },
} });
pinSelf(1);
const file = (name) => fileURLToPath(new URL(`./servers/${name}`, import.meta.url));
const SERVERS = [
  { label: 'ours', file: file('ours.cjs'), env: { TOOLS: 'echo' } },
  { label: 'sdk-v2', file: file('sdk-v2.mjs'), env: { TOOLS: 'echo' } },
];

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.once('error', reject);
  });
}

function send(agent, port, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, timeout: 10_000,
      headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

/** One virtual user: its own connection; on the 2025-11-25 wire its own session where the server gives one. */
async function virtualUser(port, wire, id, run) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let headers = (method, name) => modernHeaders(method, name);
  let body = (method, params, n) => modernBody(method, params, n);
  if (wire === LEGACY) {
    const init = await send(agent, port, legacyHeaders(), legacyBody('initialize', {
      protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'field-bench', version: '1.0.0' } }, 0));
    if (init.status !== 200) throw new Error(`initialize: ${init.status} ${init.text.slice(0, 200)}`);
    const sid = init.headers['mcp-session-id'];
    await send(agent, port, legacyHeaders(sid), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    headers = () => legacyHeaders(sid);
    body = (method, params, n) => legacyBody(method, params, n);
  }
  for (let i = 0; !run.stop; i++) {
    const list = i % 10 === 9;
    const text = `u${id}-${i}`;
    const r = list
      ? await send(agent, port, headers('tools/list'), body('tools/list', {}, i))
      : await send(agent, port, headers('tools/call', 'echo'), body('tools/call', { name: 'echo', arguments: { text } }, i));
    let ok = r.status === 200;
    if (ok) {
      const m = messageOf(r.text);
      ok = m.id === i && (list ? m.result?.tools?.some((t) => t.name === 'echo') : m.result?.content?.[0]?.text === text && !m.result.isError);
    }
    if (run.measuring) ok ? run.good++ : run.bad++;
    else if (!ok) run.badOutside++;
  }
  agent.destroy();
}

async function slot(server, wire, opts) {
  const port = await freePort();
  const child = startServer(server.file, { ...server.env, PORT: String(port) });
  try {
    await waitUntil(() => listening(port), { everyMs: 10, timeoutMs: 30_000, what: server.label, child });
    const run = { stop: false, measuring: false, good: 0, bad: 0, badOutside: 0 };
    const users = [];
    for (let u = 0; u < opts.users; u++) {
      users.push(virtualUser(port, wire, u, run));
      await new Promise((r) => setTimeout(r, (opts.rampS * 1000) / opts.users));
    }
    const s0 = procStat(child.pid); const g0 = process.cpuUsage(); const t0 = process.hrtime.bigint();
    run.measuring = true;
    await new Promise((r) => setTimeout(r, opts.holdS * 1000));
    run.measuring = false;
    const secs = Number(process.hrtime.bigint() - t0) / 1e9; const s1 = procStat(child.pid); const g = process.cpuUsage(g0);
    run.stop = true;
    await Promise.all(users);
    const serverCpuMs = ((s1.cpuTicks - s0.cpuTicks) * 1000) / CLK_TCK;
    return { opsPerSec: run.good / secs, bad: run.bad + run.badOutside, good: run.good,
      cpuUsPerOp: (serverCpuMs * 1000) / run.good, loadgenPct: ((g.user + g.system) / 1e4) / secs };
  } finally {
    await stopServer(child);
  }
}

async function coldLaunch(server, warm, launches) {
  const ms = []; const cpu = [];
  for (let i = 0; i < warm + launches; i++) {
    const port = await freePort();
    const t0 = process.hrtime.bigint();
    const child = startServer(server.file, { ...server.env, PORT: String(port) });
    const agent = new Agent({ keepAlive: false });
    try {
      await waitUntil(async () => {
        const r = await send(agent, port, modernHeaders('tools/call', 'echo'), modernBody('tools/call', { name: 'echo', arguments: { text: 'up' } }));
        return r.status === 200 && messageOf(r.text).result?.content?.[0]?.text === 'up';
      }, { everyMs: 2, timeoutMs: 30_000, what: server.label, child });
      if (i >= warm) { ms.push(Number(process.hrtime.bigint() - t0) / 1e6); cpu.push((procStat(child.pid).cpuTicks * 1000) / CLK_TCK); }
    } finally {
      await stopServer(child);
    }
  }
  return { medianMs: median(ms), cpuMs: median(cpu), launches };
}

const opts = { users: Number(a.users), rampS: Number(a.ramp), holdS: Number(a.hold) };
const rows = [];
for (const wire of a.wire.split(',').filter(Boolean)) {
  for (let round = 0; round < Number(a.rounds); round++) {
    const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]);
    for (const server of order) {
      const r = await slot(server, wire, opts);
      rows.push({ wire, round, label: server.label, ...r });
      console.error(`${wire} round ${round + 1} ${server.label}: ${r.opsPerSec.toFixed(0)} ops/s, ${r.cpuUsPerOp.toFixed(0)} µs CPU/op, load-gen ${r.loadgenPct.toFixed(0)} %, bad ${r.bad}`);
    }
  }
}
const table = [];
for (const wire of new Set(rows.map((r) => r.wire))) {
  const of = (label, k) => median(rows.filter((r) => r.wire === wire && r.label === label).map((r) => r[k]));
  for (const s of SERVERS) {
    table.push({ wire, server: s.label, 'median ops/s': of(s.label, 'opsPerSec').toFixed(0), 'server CPU µs/op': of(s.label, 'cpuUsPerOp').toFixed(0),
      'load-gen CPU %': of(s.label, 'loadgenPct').toFixed(0), bad: rows.filter((r) => r.wire === wire && r.label === s.label).reduce((n, r) => n + r.bad, 0) });
  }
  const perRound = [...new Set(rows.map((r) => r.round))].map((round) => {
    const at = (label) => rows.find((r) => r.wire === wire && r.round === round && r.label === label);
    return { ops: at('ours').opsPerSec / at('sdk-v2').opsPerSec, cpu: at('sdk-v2').cpuUsPerOp / at('ours').cpuUsPerOp };
  });
  table.push({ wire, server: 'ours ÷ sdk-v2', 'median ops/s': median(perRound.map((x) => x.ops)).toFixed(2), 'server CPU µs/op': `${median(perRound.map((x) => x.cpu)).toFixed(2)}× less`, 'load-gen CPU %': '', bad: '' });
}
if (table.length) console.table(table);
if (Number(a.launches) > 0) {
  const launches = [];
  for (const s of SERVERS) launches.push({ server: s.label, ...(await coldLaunch(s, Number(a.warm), Number(a.launches))) });
  console.table(launches.map((l) => ({ server: l.server, 'spawn → first answered tools/call, median ms': l.medianMs.toFixed(0), 'server CPU ms': l.cpuMs.toFixed(0), timed: l.launches })));
}
if (a.size) console.table(installedSize());
