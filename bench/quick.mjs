// Quick measurements while optimising; not part of the report, writes nothing.
//
//   node bench/quick.mjs [--proc ours-echo] [--kind call|mrtr|list] [--runs 3] [--seconds 4]
//     one server, one load: req/s and server CPU µs per request, run by run
//   node bench/quick.mjs --scenario fixed-2026 [--runs 3] [--seconds 3]
//     one scenario of bench.mjs with its peers, interleaved rounds, the same-run ratios
//   node bench/quick.mjs --proc ours-fixed --base bench/out/base/cjs [--runs 5] [--seconds 3]
//     A/B: the same server from the current dist/cjs ("new") and from a saved copy ("base"),
//     interleaved (new base, base new, …); per-round new ÷ base req/s and CPU µs/req. Save a copy
//     before a change with `cp -a dist/cjs bench/out/base/` (it must sit in the repository so its
//     requires find node_modules).
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { PROCESSES, load, FIXED, FIXED_TEXT, AUTHORIZED } from './lib/targets.mjs';
import { SCENARIOS } from './lib/scenarios.mjs';
import { runScenario } from './lib/run-scenario.mjs';
import { scenarioRatios } from './lib/ratios.mjs';
import { median } from './lib/stats.mjs';
import { pinSelf, startServer, stopServer, waitUntil } from './lib/procs.mjs';
import { listening } from './lib/wire.mjs';
import { prepare } from './lib/prepare.mjs';
import { runLoad } from './lib/load.mjs';
import { snapshotDist } from './lib/dist-snapshot.mjs';

const { values: a } = parseArgs({ options: {
  proc: { type: 'string', default: 'ours-echo' }, kind: { type: 'string', default: 'call' },
  runs: { type: 'string', default: '3' }, seconds: { type: 'string', default: '4' },
  scenario: { type: 'string' }, base: { type: 'string' },
} });
pinSelf(1);
const dist = snapshotDist();
const seconds = Number(a.seconds), runs = Number(a.runs);

if (a.scenario) {
  const scenario = SCENARIOS.find((s) => s.id === a.scenario);
  if (!scenario) throw new Error(`no scenario ${a.scenario}; one of ${SCENARIOS.map((s) => s.id).join(', ')}`);
  const out = await runScenario({ ...scenario, connections: scenario.connections.slice(0, 1) }, { rounds: runs, warmupS: 1, durationS: seconds });
  console.table(scenarioRatios(out).map((r) => ({ ours: r.ours, vs: r.other, median: r.median.toFixed(3), perRound: r.perRound.map((x) => x.toFixed(2)).join(' '), cpuLess: r.cpuMedian.toFixed(2), pooled: r.pooled.toFixed(2), cpuLessPooled: r.cpuPooled.toFixed(2) })));
  process.exit(0);
}

const p = PROCESSES[a.proc];
const extra = { ...(p.env.TOOLS === 'fixed' ? { call: FIXED, expectText: FIXED_TEXT } : {}), ...(p.env.OAUTH_JWK ? AUTHORIZED : {}) };
const spec = load(a.proc, a.proc, a.kind, { tools: Number(p.env.NTOOLS ?? 1), ...extra });
const sides = [{ name: 'new', dist, port: p.port }];
if (a.base) sides.push({ name: 'base', dist: resolve(a.base), port: p.port + 50 });
for (const s of sides) {
  s.child = startServer(p.file, { ...p.env, PORT: String(s.port), OMC_DIST: s.dist });
  s.results = [];
}
try {
  for (const s of sides) {
    await waitUntil(() => listening(s.port), { what: `${a.proc} (${s.name})`, child: s.child });
    s.prepared = await prepare(spec, s.port);
    await runLoad(spec, { port: s.port, pid: s.child.pid, prepared: s.prepared, connections: 32, seconds: 2, record: false });
  }
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) {
      const m = await runLoad(spec, { port: s.port, pid: s.child.pid, prepared: s.prepared, connections: 32, seconds });
      s.results.push(m);
      console.log(`${a.proc} ${a.kind} ${s.name}: ${m.rps.toFixed(0)} req/s, ${m.cpuUsPerReq.toFixed(1)} µs CPU/req, p99 ${m.p99ms.toFixed(2)} ms, RSS ${m.rssMB.toFixed(0)} MB, bad ${m.mismatches + m.non2xx + m.errors}`);
    }
  }
  if (sides.length === 2) {
    const [n, b] = sides;
    const rps = n.results.map((m, i) => m.rps / b.results[i].rps);
    const cpu = n.results.map((m, i) => m.cpuUsPerReq / b.results[i].cpuUsPerReq);
    console.log(`new ÷ base req/s: median ${median(rps).toFixed(3)} (${rps.map((v) => v.toFixed(3)).join(' ')})`);
    console.log(`new ÷ base CPU µs/req: median ${median(cpu).toFixed(3)} (${cpu.map((v) => v.toFixed(3)).join(' ')}); `
      + `medians ${median(n.results.map((m) => m.cpuUsPerReq)).toFixed(1)} vs ${median(b.results.map((m) => m.cpuUsPerReq)).toFixed(1)} µs`);
  }
} finally {
  for (const s of sides) await stopServer(s.child);
}
