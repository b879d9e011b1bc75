// The new features of rounds 30-35, unused and used, on the echo row (issue 34):
// - unused: this feature's landing commit ÷ the commit before it (bench/inproc.mjs --base: our request
//   path in-process, alternating fresh processes, CPU per request), for each feature's own range;
// - used: the field workload's echo with the feature in use beside the same echo without it, one run.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';
import { buildAt } from './build-at.mjs';
import { freePort, fieldSlot, launchPeer } from './field.mjs';
import { pinned, stopServer, waitUntil } from './procs.mjs';
import { LEGACY, MODERN, listening } from './wire.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

/** Where each feature landed on main (first parent): the commit before it and the commit that completes it. */
export const FEATURE_RANGES = [
  { feature: 'bridge (issue 35)', base: '456aefb', next: '6fcfc3f', kinds: ['call'] },
  { feature: 'ask fallbacks (issue 33)', base: '6fcfc3f', next: '1b1967e', kinds: ['call'] },
  { feature: 'fleet quota leases (bccbf3e)', base: 'bccbf3e^', next: 'bccbf3e', kinds: ['call', 'session'] },
  { feature: 'flow leases with takeover (fleet-faults merge 75f54e4)', base: '75f54e4^1', next: '75f54e4', kinds: ['call'] },
];

/** One A/B of bench/inproc.mjs (its alternating rounds); resolves { ratio, perRound }. */
function inprocAB(newDist, baseDist, kind, { n, rounds }) {
  const out = spawnSync(process.execPath, [here('../inproc.mjs'), '--proc', 'ours-echo', '--kind', kind, '--n', String(n), '--rounds', String(rounds),
    '--new', newDist, '--base', baseDist], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (out.status !== 0) throw new Error(`inproc ${kind}: ${out.stderr.slice(-800)}`);
  const line = out.stdout.split('\n').find((l) => l.startsWith('new ÷ base CPU/req'));
  const m = line?.match(/median ([\d.]+) \(([\d. ]+)\)/);
  if (!m) throw new Error(`inproc printed no ratio: ${out.stdout.slice(-400)}`);
  return { ratio: Number(m[1]), perRound: m[2].trim().split(/\s+/).map(Number) };
}

/** Unused: each feature's range (or, with `base`, this checkout's dist/cjs against that commit or folder). */
export function measureUnused({ n = 20000, rounds = 9, base, log = () => {} } = {}) {
  const ranges = base ? [{ feature: `this build vs --base ${base}`, base, next: undefined, kinds: ['call', 'session'] }] : FEATURE_RANGES;
  const rows = [];
  for (const r of ranges) {
    const baseDist = /[/.]/.test(r.base) && !r.base.includes('^') ? r.base : buildAt(r.base, log);
    const newDist = r.next ? buildAt(r.next, log) : fileURLToPath(new URL('../../dist/cjs', import.meta.url));
    for (const kind of r.kinds) {
      log(`unused: ${r.feature}, ${kind}: ${r.next ?? 'dist/cjs'} ÷ ${r.base}`);
      rows.push({ feature: r.feature, base: `${r.base} → ${r.next ?? 'this build'}`, kind: kind === 'call' ? 'echo 2026-07-28' : 'echo on a 2025-11-25 session', ...inprocAB(newDist, baseDist, kind, { n, rounds }) });
    }
  }
  return rows;
}

const ours = (label, wire, env = {}, launch) => ({ label, wire, file: here('../servers/ours.cjs'), env: { TOOLS: 'echo', ...env }, launch });

/** A process pinned to CPU 0 with arguments, its stderr shown. */
function spawnPinned(argv, env = {}) {
  const [cmd, args] = pinned(0, argv);
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.once('exit', (code, signal) => { child.exited = { code, signal }; });
  return child;
}

async function started(child, port, what) {
  try {
    await waitUntil(() => listening(port), { everyMs: 10, timeoutMs: 60_000, what, child });
  } catch (e) {
    await stopServer(child);
    throw e;
  }
  return child;
}

/** The bridge (2026-07-28 upstream) on `port`, our echo server behind it. */
async function bridgeLaunch(port) {
  const upPort = await freePort();
  const up = await launchPeer(ours('upstream', MODERN), upPort);
  const bridge = await started(spawnPinned([process.execPath, here('../../bin/onemodelcontext.js'), 'bridge', '--url', `http://127.0.0.1:${upPort}/mcp`, '--port', String(port)], { PORT: '' }), port, 'bridge')
    .catch(async (e) => { await up.stop(); throw e; });
  return { pids: [bridge.pid, ...up.pids], stop: async () => { await stopServer(bridge); await up.stop(); } };
}

/** redis-server on a free port, then our echo server with REDIS_URL (shared stores, leases included). */
async function fleetLaunch(port) {
  const redisPort = await freePort();
  const redis = await started(spawnPinned(['redis-server', '--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']), redisPort, 'redis-server');
  const srv = await launchPeer(ours('fleet', LEGACY, { REDIS_URL: `redis://127.0.0.1:${redisPort}` }), port).catch(async (e) => { await stopServer(redis); throw e; });
  return { pids: [...srv.pids, redis.pid], stop: async () => { await srv.stop(); await stopServer(redis); } };
}

/** Used: pairs of loads (with / without the feature) on the field workload, rotated rounds, one run. */
export async function measureUsed({ rounds = 3, users = 50, rampS = 2, holdS = 5, only, log = () => {} } = {}) {
  const all = [
    ours('echo, 2026-07-28 (plain)', MODERN),
    ours('echo, 2026-07-28, ask fallback declared (deny): every call through the fallback port', MODERN, { FALLBACK: 'deny' }),
    ours('echo, 2026-07-28, through `onemodelcontext bridge` (bridge + upstream CPU)', MODERN, {}, bridgeLaunch),
    ours('echo, 2025-11-25 sessions (plain)', LEGACY),
    ours('echo, 2025-11-25 sessions in a fleet: Redis stores, a lease per session (server + redis CPU)', LEGACY, {}, fleetLaunch),
  ];
  // `only`: the loads whose label contains it, with the plain echo of their wire beside them.
  const picked = only ? all.filter((l) => l.label.includes(only)) : all;
  const loads = all.filter((l) => picked.includes(l) || (l.label.endsWith('(plain)') && picked.some((x) => x.wire === l.wire)));
  const plainOf = (l) => loads.find((x) => x.wire === l.wire && x.label.endsWith('(plain)'));
  const runs = [];
  for (let round = 0; round < rounds; round++) {
    for (const l of loads.map((_, i) => loads[(i + round) % loads.length])) {
      const r = await fieldSlot(l, l.wire, { users, rampS, holdS });
      runs.push({ round, label: l.label, ...r });
      log(`used round ${round + 1} ${l.label}: ${r.opsPerSec.toFixed(0)} ops/s, ${r.cpuUsPerOp.toFixed(0)} µs CPU/op, bad ${r.bad}${r.failed ? ` (${r.failed})` : ''}`);
    }
  }
  return loads.map((l) => {
    const mine = runs.filter((r) => r.label === l.label);
    const plain = runs.filter((r) => r.label === plainOf(l).label);
    return { label: l.label, opsPerSec: median(mine.map((r) => r.opsPerSec)), cpuUsPerOp: median(mine.map((r) => r.cpuUsPerOp)), bad: mine.reduce((s, r) => s + r.bad, 0),
      opsRatio: median(mine.map((r, i) => r.opsPerSec / plain[i].opsPerSec)), cpuRatio: median(mine.map((r, i) => r.cpuUsPerOp / plain[i].cpuUsPerOp)) };
  });
}
