// Issue 34's headline row in one run: two-round MRTR flows (round 1 input_required with an elicitation
// and a sealed requestState; round 2 the answer and the state; the result), ours in HMAC and AES-GCM
// mode at default options, SDK v2 2.4.0 with its createRequestStateCodec, and the floor (two raw
// node:http exchanges + one seal + one open, servers/floor-mrtr.mjs) in both modes. Interleaved rounds
// (order reversed every other round), every response checked. Prints per load the median flows/s and
// server CPU µs per flow, the load generator's share of a core, the machine's load average, then
// ours ÷ SDK v2 (flows/s; CPU per flow, SDK ÷ ours: medians of per-round ratios, and pooled over all rounds,
// which weighs a slow window of the machine by its length) and ours ÷ floor (CPU per flow, floor ÷ ours: the
// share of the floor's efficiency we reach). Asserts nothing.
//
//   node bench/mrtr.mjs [--rounds 12] [--seconds 10] [--warmup 1] [--conns 32] [--base <dist/cjs of a build>]
//
// Why 12 short rounds (≈ 12 min, 2 min of load per server): the 2-core machines we run on have windows of
// 15–30 s in which everything runs up to twice as slow, kernel time included (`bench/mode-split.mjs --perf`: every
// category doubles, so it is the hardware, not our code). A window covers one to three slots; with four rounds
// of 30 s it covered whole rounds and moved the median by 30 %, with twelve rounds of 10 s the median of
// per-round ratios sets it aside, and the pooled ratio shows what it cost.
//
// --base adds that build's two servers ("base HMAC", "base AES-GCM") to the same interleaved rounds: a
// fresh-process A/B of a change on this row, beside the peers it is measured against.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { addBaseProcess, load } from './lib/targets.mjs';
import { runScenario } from './lib/run-scenario.mjs';
import { scenarioRatios, scenarioSummary } from './lib/ratios.mjs';
import { pinSelf } from './lib/procs.mjs';
import { snapshotDist } from './lib/dist-snapshot.mjs';

const { values: a } = parseArgs({ options: {
  rounds: { type: 'string', default: '12' }, seconds: { type: 'string', default: '10' },
  warmup: { type: 'string', default: '1' }, conns: { type: 'string', default: '32' }, base: { type: 'string' },
} });
pinSelf(1);
snapshotDist();
const ours = (label, proc) => ({ ...load(label, proc, 'mrtr'), ours: true });
const scenario = {
  id: 'mrtr-headline', title: 'MRTR two-round flow', connections: [Number(a.conns)],
  loads: [
    ours('ours HMAC', 'ours-mrtr-hmac'), ours('ours AES-GCM', 'ours-mrtr-aes'),
    load('sdk-v2', 'v2-mrtr', 'mrtr'),
    load('floor HMAC', 'floor-mrtr-hmac', 'mrtr'), load('floor AES-GCM', 'floor-mrtr-aes', 'mrtr'),
  ],
};
if (a.base) {
  for (const mode of ['hmac', 'aes']) addBaseProcess(`ours-mrtr-${mode}`, `base-mrtr-${mode}`, a.base);
  scenario.loads.push(ours('base HMAC', 'base-mrtr-hmac'), ours('base AES-GCM', 'base-mrtr-aes'));
}
const load0 = loadavg()[0];
const started = new Date().toISOString();
const out = await runScenario(scenario, { rounds: Number(a.rounds), warmupS: Number(a.warmup), durationS: Number(a.seconds) });
const load1 = loadavg()[0];
const perFlow = (s) => (s.cpuUsPerReq * s.rps) / s.flowsPerSec;
console.log(`\n${started}: ${a.rounds} rounds × ${a.seconds} s per load (+${a.warmup} s warm-up), ${a.conns} connections; load average ${load0.toFixed(1)} → ${load1.toFixed(1)} on ${(await import('node:os')).cpus().length} CPUs`);
console.table(scenarioSummary(out).map((s) => ({
  load: s.label, 'flows/s': s.flowsPerSec.toFixed(0), 'server CPU µs/flow': perFlow(s).toFixed(0),
  'server CPU %': s.serverCpuPct.toFixed(0), 'load-gen CPU %': s.loadgenCpuPct.toFixed(0), 'bad / responses': `${s.bad} / ${s.responses}`,
})));
const rows = scenarioRatios(out);
const pick = (o, other) => rows.find((r) => r.ours === o && r.other === other);
const table = [];
for (const [o, floor] of [['ours HMAC', 'floor HMAC'], ['ours AES-GCM', 'floor AES-GCM']]) {
  const sdk = pick(o, 'sdk-v2'), f = pick(o, floor);
  table.push({
    ours: o,
    '÷ sdk-v2 flows/s': `${sdk.median.toFixed(2)} (${sdk.perRound.map((x) => x.toFixed(2)).join(' · ')})`,
    'sdk-v2 ÷ ours CPU/flow': `${sdk.cpuMedian.toFixed(2)} (${sdk.cpuPerRound.map((x) => x.toFixed(2)).join(' · ')})`,
    'pooled ÷ sdk-v2 flows/s / CPU': `${sdk.pooled.toFixed(2)} / ${sdk.cpuPooled.toFixed(2)}`,
    '÷ floor flows/s': f.median.toFixed(2),
    'floor ÷ ours CPU/flow': f.cpuMedian.toFixed(2),
  });
}
console.table(table);
