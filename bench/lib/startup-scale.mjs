// Start-up as the app grows (issue 38): N tools over stdio, each with its own three-field schema (ours: a
// class-validator DTO per tool, servers/stdio-scale-ours.cjs; SDK v2: a zod object per tool,
// servers/stdio-scale-sdk-v2.mjs). Timed from spawn() to the `initialize` answer on stdout; the server's
// CPU (utime+stime) and peak RSS (VmHWM) read from /proc at that moment. Then checked: every tool listed
// (all pages; the server's CPU read again then: ready to serve, whatever each side left for the first
// tools/list) and one tool called (in the first round every tool is called). Rounds alternate the order.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';
import { CLK_TCK, pinned, procStat } from './procs.mjs';

const file = (name) => fileURLToPath(new URL(`../servers/${name}`, import.meta.url));
export const SCALE_SERVERS = [
  { label: 'ours', file: file('stdio-scale-ours.cjs') },
  { label: 'sdk-v2', file: file('stdio-scale-sdk-v2.mjs') },
];
export const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } };

/** One stdio child speaking newline-delimited JSON-RPC (`server.args` after the file, e.g. a CLI's). */
export function stdioPeer(server, env) {
  const [cmd, args] = pinned(0, [process.execPath, server.file, ...(server.args ?? [])]);
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let buffered = '';
  let nextId = 1;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  const exited = new Promise((r) => child.once('exit', r));
  return {
    child,
    request(method, params = {}) {
      const id = nextId++;
      const answered = new Promise((resolve, reject) => {
        waiting.set(id, resolve);
        exited.then(() => reject(new Error(`${server.label} exited before answering ${method}`)));
      });
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      return answered;
    },
    notify(method) { child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n'); },
    async stop() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Lists every page, checks the count, then calls every tool (or the last); `listed` runs after the listing. */
export async function checkTools(peer, n, label, callEvery, listed = () => {}) {
  const names = [];
  for (let cursor, first = true; first || cursor; first = false) {
    const r = await peer.request('tools/list', cursor ? { cursor } : {});
    if (!r.result) throw new Error(`${label}: tools/list failed: ${JSON.stringify(r.error)}`);
    names.push(...r.result.tools.map((t) => t.name));
    cursor = r.result.nextCursor;
  }
  if (new Set(names).size !== n) throw new Error(`${label}: listed ${new Set(names).size} tools, expected ${n}`);
  listed();
  for (const name of callEvery ? names : names.slice(-1)) {
    const r = await peer.request('tools/call', { name, arguments: { text: 'hi', count: 1 } });
    const text = r.result?.content?.[0]?.text;
    if (text !== `${name}:hi` || r.result.isError) throw new Error(`${label}: ${name} answered ${JSON.stringify(r)}`);
  }
}

async function startOnce(server, n, callEvery) {
  const t0 = process.hrtime.bigint();
  const peer = stdioPeer(server, { ...server.env, NTOOLS: String(n) });
  try {
    const init = await peer.request('initialize', INIT);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const st = procStat(peer.child.pid); // taskset execs node: the pid is the server's
    if (!init.result?.protocolVersion) throw new Error(`${server.label}: initialize failed: ${JSON.stringify(init)}`);
    peer.notify('notifications/initialized');
    let listedCpuMs;
    await checkTools(peer, n, `${server.label} N=${n}`, callEvery, () => {
      listedCpuMs = (procStat(peer.child.pid).cpuTicks * 1000) / CLK_TCK;
    });
    return { ms, cpuMs: (st.cpuTicks * 1000) / CLK_TCK, listedCpuMs, peakMB: st.hwmKB / 1024 };
  } finally {
    await peer.stop();
  }
}

/** Rounds × sizes × servers, the server order flipped every round; medians and ours ÷ SDK v2 per size. */
export async function measureStartupScale({ rounds = 5, sizes = [1, 500, 5000], servers = SCALE_SERVERS, log = () => {} } = {}) {
  const rows = [];
  // One start of each, not recorded: files in the OS cache for all, and our bytecode cache made (what
  // every start after an app's first one finds: dist/cjs/code-cache.js).
  for (const server of servers) await startOnce(server, sizes[0], false);
  for (let round = 1; round <= rounds; round++) {
    for (const n of sizes) {
      for (const server of round % 2 ? servers : [...servers].reverse()) {
        const r = await startOnce(server, n, round === 1);
        rows.push({ label: server.label, n, round, ...r });
        log(`${server.label} N=${n} round ${round}: ${r.ms.toFixed(0)} ms, ${r.cpuMs.toFixed(0)} ms CPU, peak ${r.peakMB.toFixed(0)} MB`);
      }
    }
  }
  const summary = [];
  for (const n of sizes) {
    const of = (label, k) => median(rows.filter((r) => r.label === label && r.n === n).map((r) => r[k]));
    for (const s of servers) {
      summary.push({
        n, label: s.label, medianMs: of(s.label, 'ms'), cpuMs: of(s.label, 'cpuMs'), listedCpuMs: of(s.label, 'listedCpuMs'), peakMB: of(s.label, 'peakMB'),
        perRound: rows.filter((r) => r.label === s.label && r.n === n).map((r) => Math.round(r.ms)),
      });
    }
    // Ratio of medians, and the median of per-round ratios (robust to a slow round hitting one side).
    const perRound = [...new Set(rows.map((r) => r.round))].map((round) => {
      const at = (label) => rows.find((r) => r.label === label && r.n === n && r.round === round);
      return { ms: at('ours').ms / at('sdk-v2').ms, cpu: at('ours').cpuMs / at('sdk-v2').cpuMs, listed: at('ours').listedCpuMs / at('sdk-v2').listedCpuMs };
    });
    if (servers.some((s) => s.label === 'ours-base')) {
      const ab = [...new Set(rows.map((r) => r.round))].map((round) => {
        const at = (label) => rows.find((r) => r.label === label && r.n === n && r.round === round);
        return { ms: at('ours').ms / at('ours-base').ms, cpu: at('ours').cpuMs / at('ours-base').cpuMs, listed: at('ours').listedCpuMs / at('ours-base').listedCpuMs };
      });
      summary.push({ n, label: 'ours ÷ ours-base', medianMs: median(ab.map((x) => x.ms)), cpuMs: median(ab.map((x) => x.cpu)), listedCpuMs: median(ab.map((x) => x.listed)), peakMB: of('ours', 'peakMB') / of('ours-base', 'peakMB') });
    }
    summary.push({
      n, label: 'ours ÷ sdk-v2', medianMs: median(perRound.map((x) => x.ms)), cpuMs: median(perRound.map((x) => x.cpu)), listedCpuMs: median(perRound.map((x) => x.listed)),
      peakMB: of('ours', 'peakMB') / of('sdk-v2', 'peakMB'),
    });
  }
  return { rows, summary, rounds, sizes };
}
