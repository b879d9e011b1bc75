// The field's own benchmark workload (mcp-use's benchmark.md), run against every peer of
// lib/peers.mjs (issue 34): one echo tool; each virtual user sends one tools/list per nine tools/call,
// one request in flight, on its own keep-alive connection; users ramp from 1 to `users`, then hold; a
// fresh server process per slot; `rounds` rounds with the server order rotated; medians. Every response
// is checked (echoed text, listed tool, JSON-RPC id). The load generator is this process (pinned to
// CPU 1 by the caller); servers run on CPU 0. Cold launch: spawn → first answered tools/call.
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { median } from './stats.mjs';
import { CLK_TCK, procStat, startServer, stopServer, waitUntil } from './procs.mjs';
import { LEGACY, MODERN, legacyBody, legacyHeaders, listening, messageOf, modernBody, modernHeaders } from './wire.mjs';

export function freePort() {
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

/** How one client talks on `wire`: on 2025-11-25, initialize first and keep the session id if one is given. */
async function clientOn(agent, port, wire) {
  if (wire === MODERN) return { headers: (method, name) => modernHeaders(method, name), body: modernBody };
  const init = await send(agent, port, legacyHeaders(), legacyBody('initialize', {
    protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'field-bench', version: '1.0.0' } }, 0));
  if (init.status !== 200 || messageOf(init.text).result?.protocolVersion !== LEGACY) throw new Error(`initialize: ${init.status} ${init.text.slice(0, 200)}`);
  const sid = init.headers['mcp-session-id'];
  const note = await send(agent, port, legacyHeaders(sid), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  if (note.status !== 202 && note.status !== 200) throw new Error(`notifications/initialized: ${note.status}`);
  return { headers: () => legacyHeaders(sid), body: legacyBody };
}

const echoed = (m, id, text) => m.id === id && m.result?.content?.[0]?.text === text && !m.result.isError;

/** One virtual user: its own connection (and session, where the server gives one). */
async function virtualUser(port, wire, id, run) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const c = await clientOn(agent, port, wire);
    for (let i = 1; !run.stop; i++) {
      const list = i % 10 === 0;
      const text = `u${id}-${i}`;
      // A request that fails (timeout, reset) counts as bad and the user goes on with the next one.
      const r = await (list
        ? send(agent, port, c.headers('tools/list'), c.body('tools/list', {}, i))
        : send(agent, port, c.headers('tools/call', 'echo'), c.body('tools/call', { name: 'echo', arguments: { text } }, i))
      ).catch((e) => ({ status: 0, error: e.message }));
      if (r.error) run.failed ??= r.error;
      let ok = r.status === 200;
      if (ok) {
        const m = messageOf(r.text);
        ok = list ? m.id === i && m.result?.tools?.some((t) => t.name === 'echo') : echoed(m, i, text);
      }
      if (run.measuring) ok ? run.good++ : run.bad++;
      else if (!ok) run.badOutside++;
    }
  } catch (e) { // the handshake failed: this user sends nothing more
    run.failed ??= e.message;
    run.bad++;
  } finally {
    agent.destroy();
  }
}

/** One slot: a fresh server, `users` ramping over `rampS`, `holdS` measured. */
export async function fieldSlot(peer, wire, { users, rampS, holdS }) {
  const port = peer.fixedPort ?? await freePort();
  const srv = await launchPeer(peer, port);
  try {
    const run = { stop: false, measuring: false, good: 0, bad: 0, badOutside: 0 };
    const vus = [];
    for (let u = 0; u < users; u++) {
      vus.push(virtualUser(port, wire, u, run));
      await new Promise((r) => setTimeout(r, (rampS * 1000) / users));
    }
    const s0 = statOf(srv.pids); const g0 = process.cpuUsage(); const t0 = process.hrtime.bigint();
    run.measuring = true;
    await new Promise((r) => setTimeout(r, holdS * 1000));
    run.measuring = false;
    const secs = Number(process.hrtime.bigint() - t0) / 1e9; const s1 = statOf(srv.pids); const g = process.cpuUsage(g0);
    run.stop = true;
    await Promise.all(vus);
    const serverCpuMs = ((s1.cpuTicks - s0.cpuTicks) * 1000) / CLK_TCK;
    return { opsPerSec: run.good / secs, good: run.good, bad: run.bad + run.badOutside, failed: run.failed,
      cpuUsPerOp: (serverCpuMs * 1000) / run.good, serverCpuPct: serverCpuMs / 10 / secs, loadgenPct: ((g.user + g.system) / 1e4) / secs, rssMB: s1.rssKB / 1024 };
  } finally {
    await srv.stop();
  }
}

/** One server process (or what `peer.launch(port)` starts: e.g. a bridge and its upstream), listening. */
export async function launchPeer(peer, port) {
  if (peer.launch) return peer.launch(port);
  const child = startServer(peer.file, { ...peer.env, PORT: String(port) });
  try {
    await waitUntil(() => listening(port), { everyMs: 10, timeoutMs: 60_000, what: peer.label, child });
  } catch (e) {
    await stopServer(child);
    throw e;
  }
  return { pids: [child.pid], stop: () => stopServer(child) };
}

/** CPU ticks and RSS summed over the processes serving a slot. */
function statOf(pids) {
  return pids.map(procStat).reduce((a, b) => ({ cpuTicks: a.cpuTicks + b.cpuTicks, rssKB: a.rssKB + b.rssKB }));
}

/** Every wire × round × peer that speaks the wire; the order rotates each round. */
export async function runField(peers, { wires = [MODERN, LEGACY], rounds = 3, log = () => {}, ...opts }) {
  const rows = [];
  const g0 = process.cpuUsage(); const t0 = process.hrtime.bigint();
  for (const wire of wires) {
    const on = peers.filter((p) => p.wires.includes(wire));
    for (let round = 0; round < rounds; round++) {
      for (const peer of on.map((_, i) => on[(i + round) % on.length])) {
        const r = await fieldSlot(peer, wire, opts);
        rows.push({ wire, round, label: peer.label, ...r });
        log(`${wire} round ${round + 1} ${peer.label}: ${r.opsPerSec.toFixed(0)} ops/s, ${r.cpuUsPerOp.toFixed(0)} µs server CPU/op, `
          + `load-gen ${r.loadgenPct.toFixed(0)} % of a core, bad ${r.bad}${r.failed ? ` (${r.failed})` : ''}`);
      }
    }
  }
  const g = process.cpuUsage(g0); const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  return { options: { wires, rounds, ...opts }, rows, summary: summarise(peers, rows), leads: leads(rows),
    loadgen: { cpuS: (g.user + g.system) / 1e6, wallS: secs, pctOfCore: ((g.user + g.system) / 1e4) / secs } };
}

function summarise(peers, rows) {
  const out = [];
  for (const wire of new Set(rows.map((r) => r.wire))) {
    for (const p of peers) {
      const mine = rows.filter((r) => r.wire === wire && r.label === p.label);
      if (!mine.length) continue;
      const of = (k) => median(mine.map((r) => r[k]));
      out.push({ wire, server: p.label, legacy: wire === LEGACY ? p.legacy : '', opsPerSec: of('opsPerSec'), perRound: mine.map((r) => r.opsPerSec),
        cpuUsPerOp: of('cpuUsPerOp'), loadgenPct: of('loadgenPct'), rssMB: of('rssMB'), bad: mine.reduce((n, r) => n + r.bad, 0), good: mine.reduce((n, r) => n + r.good, 0) });
    }
  }
  return out;
}

/** Ours ÷ each peer, round by round (ops/s; server CPU per op, peer ÷ ours), medians: > 1 means we lead. */
export function leads(rows) {
  const out = [];
  for (const wire of new Set(rows.map((r) => r.wire))) {
    const at = (label, round) => rows.find((r) => r.wire === wire && r.round === round && r.label === label);
    const others = [...new Set(rows.filter((r) => r.wire === wire && r.label !== 'ours').map((r) => r.label))];
    for (const other of others) {
      const per = [...new Set(rows.map((r) => r.round))].map((round) => ({ a: at('ours', round), b: at(other, round) })).filter((x) => x.a && x.b);
      const ops = median(per.map((x) => x.a.opsPerSec / x.b.opsPerSec));
      const cpu = median(per.map((x) => x.b.cpuUsPerOp / x.a.cpuUsPerOp));
      out.push({ wire, peer: other, opsRatio: ops, perRound: per.map((x) => x.a.opsPerSec / x.b.opsPerSec), cpuRatio: cpu,
        lead: ops > 1 && cpu > 1 && per.every((x) => x.a.bad === 0) });
    }
  }
  return out;
}

/** Spawn → first answered tools/call (a fresh connection per probe, every 2 ms); the peer's first wire. */
async function launchOnce(peer) {
  const port = peer.fixedPort ?? await freePort();
  const wire = peer.wires[0];
  const t0 = process.hrtime.bigint();
  const child = startServer(peer.file, { ...peer.env, PORT: String(port) });
  try {
    await waitUntil(async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const c = await clientOn(agent, port, wire);
        const r = await send(agent, port, c.headers('tools/call', 'echo'), c.body('tools/call', { name: 'echo', arguments: { text: 'up' } }, 1));
        return r.status === 200 && echoed(messageOf(r.text), 1, 'up');
      } finally {
        agent.destroy();
      }
    }, { everyMs: 2, timeoutMs: 60_000, what: peer.label, child });
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpuMs: (procStat(child.pid).cpuTicks * 1000) / CLK_TCK, rssMB: procStat(child.pid).hwmKB / 1024, wire };
  } finally {
    await stopServer(child);
  }
}

/** `warm` untimed then `launches` timed starts per peer, the peers interleaved start by start; medians. */
export async function coldLaunch(peers, { warm = 10, launches = 100, log = () => {} }) {
  const runs = new Map(peers.map((p) => [p.label, []]));
  for (let i = 0; i < warm + launches; i++) {
    for (const p of i % 2 ? [...peers].reverse() : peers) {
      const r = await launchOnce(p);
      if (i >= warm) runs.get(p.label).push(r);
    }
    if ((i + 1) % 10 === 0) log(`cold launch: ${i + 1} of ${warm + launches} starts per server`);
  }
  const rows = peers.map((p) => {
    const r = runs.get(p.label);
    return { server: p.label, wire: r[0]?.wire, medianMs: median(r.map((x) => x.ms)), p90Ms: r.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(r.length * 0.9)],
      cpuMs: median(r.map((x) => x.cpuMs)), peakRssMB: median(r.map((x) => x.rssMB)), timed: r.length };
  });
  const ours = rows.find((r) => r.server === 'ours');
  for (const r of rows) { r.oursOverMs = ours ? ours.medianMs / r.medianMs : NaN; r.oursOverCpu = ours ? ours.cpuMs / r.cpuMs : NaN; }
  return { warm, launches, rows };
}
