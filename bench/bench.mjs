// `npm run bench` (full) and `bench/smoke.sh` (--smoke): every scenario of issue #8 against the
// peers, start-up, memory, the requestState codec; writes results JSON, RESULTS.md and results.svg.
// Asserts nothing: it measures, checks every response, and prints the ratios.
//
//   node bench/bench.mjs [--smoke] [--only echo-2026,mrtr] [--rounds 5] [--warmup 2] [--duration 5] [--merge]
//   Issue 34's sections: field (the field's workload against SDK v2, mcp-use, fastmcp, xmcp), launch (cold
//   launch), size (installed size), features (the new features unused and used). --merge keeps the other
//   sections of the existing results.json (e.g. `--only field,launch,size,features --merge`).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SCENARIOS } from './lib/scenarios.mjs';
import { runScenario } from './lib/run-scenario.mjs';
import { scenarioRatios } from './lib/ratios.mjs';
import { pinSelf } from './lib/procs.mjs';
import { machineInfo } from './lib/machine.mjs';
import { measureStartup } from './lib/startup.mjs';
import { measureStartupScale } from './lib/startup-scale.mjs';
import { measureBridgeScale } from './lib/bridge-scale.mjs';
import { measureSessions } from './lib/sessions.mjs';
import { runStateCodec } from './lib/state-codec.mjs';
import { writeReport } from './lib/report.mjs';
import { snapshotDist } from './lib/dist-snapshot.mjs';
import { coldLaunch, freePort, runField } from './lib/field.mjs';
import { preparePeers } from './lib/peers.mjs';
import { installedSize } from './lib/installed-size.mjs';
import { measureUnused, measureUsed } from './lib/features.mjs';
import { fieldTables } from './lib/field-report.mjs';

const { values: args } = parseArgs({ options: {
  smoke: { type: 'boolean', default: false },
  only: { type: 'string' },
  rounds: { type: 'string' }, warmup: { type: 'string' }, duration: { type: 'string' },
  'no-report': { type: 'boolean', default: false }, merge: { type: 'boolean', default: false },
} });

// Full: 5 rounds of 2 s warm-up + 5 s measured per load (~15 min). Smoke: one short round (~1-2 min).
const base = args.smoke ? { rounds: 1, warmupS: 0.5, durationS: 1.5, startupRuns: 1, sessions: 200 } : { rounds: 5, warmupS: 2, durationS: 5, startupRuns: 5, sessions: 1000 };
const opts = { ...base, rounds: Number(args.rounds ?? base.rounds), warmupS: Number(args.warmup ?? base.warmupS), durationS: Number(args.duration ?? base.durationS) };
const only = args.only ? new Set(args.only.split(',')) : undefined;
const wanted = (id) => !only || only.has(id);

pinSelf(1); // the load generator on CPU 1, servers on CPU 0
snapshotDist();
const outDir = fileURLToPath(new URL(args.smoke ? './out/' : './', import.meta.url));
mkdirSync(outDir, { recursive: true });
const fresh = { machine: machineInfo(), options: { ...opts, smoke: args.smoke }, started: new Date().toISOString(), scenarios: [] };
const previous = args.merge && existsSync(`${outDir}results.json`) ? JSON.parse(readFileSync(`${outDir}results.json`, 'utf8')) : undefined;
// --merge: the sections run now replace theirs; the rest (and the header's machine and times) stay as they were.
const results = previous ? { ...previous, scenarios: previous.scenarios.filter((s) => !wanted(s.id)) } : fresh;
const save = () => writeFileSync(`${outDir}results.json`, `${JSON.stringify(results, null, 1)}\n`);

for (const scenario of SCENARIOS) {
  if (!wanted(scenario.id)) continue;
  console.error(`scenario ${scenario.id}: ${scenario.title}`);
  const connections = args.smoke && scenario.id !== 'echo-2026' ? scenario.connections.slice(0, 1) : scenario.connections;
  // A scenario may ask for its own rounds in a full run (scenarios.mjs: `full`); --rounds and --smoke set them all.
  const own = !args.smoke && args.rounds === undefined && scenario.full ? { ...opts, ...scenario.full } : undefined;
  const out = await runScenario({ ...scenario, connections }, own ?? opts);
  results.scenarios.push(own ? { ...out, options: own } : out);
  save();
}
if (wanted('startup')) { console.error('start-up'); results.startup = await measureStartup(opts.startupRuns); save(); }
if (wanted('startup-scale')) {
  console.error('start-up at 1, 500, 5 000 tools (stdio)');
  results.startupScale = await measureStartupScale({ rounds: args.smoke ? 1 : opts.startupRuns, log: (l) => console.error(`  ${l}`) });
  save();
}
if (wanted('bridge-scale')) {
  console.error('mounted tools at 1, 500, 5 000 (a bridge over stdio)');
  results.bridgeScale = await measureBridgeScale({ rounds: args.smoke ? 1 : 3, sizes: args.smoke ? [1, 500] : [1, 500, 5000], log: (l) => console.error(`  ${l}`) });
  save();
}
if (wanted('sessions')) { console.error('idle sessions'); results.sessions = await measureSessions(opts.sessions); save(); }
if (wanted('state-codec')) { console.error('state codec'); results.stateCodec = runStateCodec(); save(); }
// Issue 34: each section carries when, from what source and under what load it ran (the machine is shared).
const stamp = (t0) => ({ started: t0, finished: new Date().toISOString(), source: fresh.machine.source, loadavgBefore: fresh.loadavg, loadavgAfter: loadavg().map((x) => +x.toFixed(2)) });
fresh.loadavg = loadavg().map((x) => +x.toFixed(2));
const log = (l) => console.error(`  ${l}`);
if (['field', 'launch'].some(wanted)) {
  // Smoke: one short round of each wire, ten users, and one start per server.
  const peers = await preparePeers(undefined, freePort);
  if (wanted('field')) {
    console.error("the field's workload (mcp-use's benchmark shape) against SDK v2, mcp-use, fastmcp, xmcp");
    const t0 = new Date().toISOString();
    const f = await runField(peers, args.smoke ? { rounds: 1, users: 10, rampS: 1, holdS: 1.5, log } : { rounds: 3, users: 50, rampS: 5, holdS: 10, log });
    results.field = { ...f, run: stamp(t0) };
    save();
  }
  if (wanted('launch')) {
    console.error('cold launch: spawn → first answered tools/call');
    const t0 = new Date().toISOString();
    results.launch = { ...(await coldLaunch(peers, args.smoke ? { warm: 0, launches: 1, log } : { warm: 10, launches: 100, log })), run: stamp(t0) };
    save();
  }
}
if (wanted('size') && !args.smoke) { // npm installs of five apps: not in the CI smoke
  console.error('installed size of a minimal server app');
  const t0 = new Date().toISOString();
  results.size = installedSize({ log });
  results.sizeRun = stamp(t0);
  save();
}
if (wanted('features')) {
  console.error('the new features, unused (A/B against the commit before each) and used');
  const t0 = new Date().toISOString();
  results.features = args.smoke
    ? { unused: [], used: await measureUsed({ rounds: 1, users: 5, rampS: 0.5, holdS: 1, log }) }
    : { unused: measureUnused({ log }), used: await measureUsed({ log }) };
  results.features.run = stamp(t0);
  save();
}
results.finished = previous ? previous.finished : new Date().toISOString();
save();

for (const s of results.scenarios) {
  console.log(`\n${s.title}`);
  console.table(scenarioRatios(s).map((r) => ({ ours: r.ours, vs: r.other, conns: r.connections, median: r.median.toFixed(3), perRound: r.perRound.map((x) => x.toFixed(3)).join(' ') })));
}
if (results.startup) console.table(results.startup.summary);
if (results.startupScale) console.table(results.startupScale.summary.map(({ perRound, ...r }) => r));
if (results.bridgeScale) console.table(results.bridgeScale.summary);
if (results.sessions) console.table(results.sessions.summary);
for (const t of fieldTables(results)) {
  console.log(`\n${t.title}`);
  console.table(t.rows);
  for (const line of t.notes ?? []) console.log(line);
}
if (!args['no-report']) writeReport(results, outDir);
