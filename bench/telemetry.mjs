// Telemetry overhead (issue 18): our echo server, and a two-round flow, with `@opentelemetry/api`
// absent (the baseline: as before telemetry existed), installed with no SDK (must be within noise),
// and with an SDK (in-memory exporters: one span and the metrics per request). Rounds alternate
// the variants so drift hits each alike; prints medians and ratios to the baseline. No asserts.
//   npm run build && node bench/telemetry.mjs [--rounds 3] [--seconds 5] [--kinds call,mrtr] [--split]
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { load, port } from './lib/targets.mjs';
import { pinSelf, startServer, stopServer, waitUntil } from './lib/procs.mjs';
import { listening } from './lib/wire.mjs';
import { prepare } from './lib/prepare.mjs';
import { runLoad } from './lib/load.mjs';
import { snapshotDist } from './lib/dist-snapshot.mjs';
import { median } from './lib/stats.mjs';

const { values: a } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    kinds: { type: 'string', default: 'call,mrtr' },
    // Also the SDK's parts one at a time: its context manager, traces alone, metrics alone.
    split: { type: 'boolean', default: false },
  },
});
const file = (name) => fileURLToPath(new URL(`./servers/${name}`, import.meta.url));
const VARIANTS = [
  { name: 'API absent (baseline)', nodeArgs: ['--require', file('otel-absent.cjs')] },
  { name: 'API, no SDK', nodeArgs: [] },
  { name: 'API + SDK (in-memory)', nodeArgs: ['--require', file('otel-sdk.cjs')] },
  ...(a.split
    ? [
        { name: 'SDK: context only', nodeArgs: ['--require', file('otel-sdk.cjs')], env: { OTEL_PARTS: 'context' } },
        { name: 'SDK: traces only', nodeArgs: ['--require', file('otel-sdk.cjs')], env: { OTEL_PARTS: 'traces' } },
        { name: 'SDK: metrics only', nodeArgs: ['--require', file('otel-sdk.cjs')], env: { OTEL_PARTS: 'metrics' } },
      ]
    : []),
];
const PORT = port(4216);
pinSelf(1);
snapshotDist();

const results = new Map(); // `${kind}|${variant}` → { rps: [], cpu: [] }
for (let round = 1; round <= Number(a.rounds); round++) {
  for (const kind of a.kinds.split(',')) {
    const spec = load(kind === 'mrtr' ? 'flow' : 'echo', 'ours', kind);
    for (const v of VARIANTS) {
      const env = { TOOLS: 'echo,confirm_echo', PORT: String(PORT), ...v.env };
      const child = startServer(file('ours.cjs'), env, { nodeArgs: v.nodeArgs });
      try {
        await waitUntil(() => listening(PORT), { what: v.name, child });
        const prepared = await prepare(spec, PORT);
        await runLoad(spec, { port: PORT, pid: child.pid, prepared, connections: 32, seconds: 2, record: false });
        const m = await runLoad(spec, { port: PORT, pid: child.pid, prepared, connections: 32, seconds: Number(a.seconds) });
        const bad = m.mismatches + m.non2xx + m.errors;
        if (bad) throw new Error(`${v.name} ${kind}: ${bad} bad responses`);
        const key = `${kind}|${v.name}`;
        const r = results.get(key) ?? { rps: [], cpu: [] };
        r.rps.push(m.rps);
        r.cpu.push(m.cpuUsPerReq);
        results.set(key, r);
        console.log(`round ${round} ${kind.padEnd(4)} ${v.name.padEnd(22)} ${m.rps.toFixed(0).padStart(6)} req/s ${m.cpuUsPerReq.toFixed(1).padStart(6)} µs CPU/req`);
      } finally {
        await stopServer(child);
      }
    }
  }
}

console.log('\nmedians (server pinned to one CPU; CPU µs per request is the steadier number)');
for (const kind of a.kinds.split(',')) {
  const base = results.get(`${kind}|${VARIANTS[0].name}`);
  const baseCpu = median(base.cpu);
  const baseRps = median(base.rps);
  for (const v of VARIANTS) {
    const r = results.get(`${kind}|${v.name}`);
    const rps = median(r.rps);
    const cpu = median(r.cpu);
    const spread = (Math.max(...r.cpu) - Math.min(...r.cpu)) / cpu;
    console.log(
      `${kind.padEnd(4)} ${v.name.padEnd(22)} ${rps.toFixed(0).padStart(6)} req/s (${(rps / baseRps).toFixed(3)}×)  ` +
        `${cpu.toFixed(1).padStart(6)} µs CPU/req (${(cpu / baseCpu).toFixed(3)}×, round spread ±${((spread / 2) * 100).toFixed(1)}%)`,
    );
  }
}
