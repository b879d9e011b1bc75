// One scenario: start its server processes, verify each load once, then interleaved rounds.
// Round r runs the loads in order, and in reverse order on even rounds (A B C, C B A, …) so a slow
// drift of the machine does not always favour the same side. Ratios are taken within a round.
import { PROCESSES } from './targets.mjs';
import { prepare } from './prepare.mjs';
import { runLoad } from './load.mjs';
import { procStat, startServer, stopServer, waitUntil } from './procs.mjs';
import { listening } from './wire.mjs';

export async function runScenario(scenario, { rounds, warmupS, durationS }, log = console.error) {
  const procNames = [...new Set(scenario.loads.map((l) => l.proc))];
  const children = {};
  const out = { id: scenario.id, title: scenario.title, loads: scenario.loads.map(({ label, proc, kind, ours }) => ({ label, proc, kind, ours: !!ours })), runs: [], idleRssMB: {}, afterRssMB: {} };
  try {
    for (const name of procNames) {
      const p = PROCESSES[name];
      // A leftover or a second run on the port would answer in our server's place.
      if (await listening(p.port).catch(() => false)) throw new Error(`port ${p.port} (${name}) is already in use: another benchmark running? Set BENCH_PORT_OFFSET.`);
      children[name] = startServer(p.file, { ...p.env, PORT: String(p.port) });
    }
    for (const name of procNames) await waitUntil(() => listening(PROCESSES[name].port), { what: name, child: children[name] });
    const prepared = [];
    for (const spec of scenario.loads) {
      prepared.push(await prepare(spec, PROCESSES[spec.proc].port));
      log(`  verified ${spec.label}`);
    }
    for (const name of procNames) out.idleRssMB[name] = procStat(children[name].pid).rssKB / 1024;
    for (const connections of scenario.connections) {
      for (let round = 1; round <= rounds; round++) {
        const order = scenario.loads.map((_, i) => i);
        if (round % 2 === 0) order.reverse();
        for (const i of order) {
          const spec = scenario.loads[i];
          const ctx = { port: PROCESSES[spec.proc].port, pid: children[spec.proc].pid, prepared: prepared[i], connections };
          if (warmupS > 0) await runLoad(spec, { ...ctx, seconds: warmupS, record: false });
          const m = await runLoad(spec, { ...ctx, seconds: durationS });
          out.runs.push({ load: i, round, ...m });
          // Requests unanswered when a short run ends are neither errors nor timeouts to autocannon.
          if (m.responses === 0) log(`  WARNING ${spec.label}: no response at all in ${durationS} s (server stalled or starved?)`);
          log(`  ${scenario.id} c=${connections} r${round} ${spec.label}: ${m.rps.toFixed(0)} req/s p50 ${m.p50ms.toFixed(2)} ms p99 ${m.p99ms.toFixed(2)} ms bad ${m.non2xx + m.errors + m.timeouts + m.mismatches} cpu server ${m.serverCpuPct.toFixed(0)} % loadgen ${m.loadgenCpuPct.toFixed(0)} %`);
        }
      }
    }
    for (const name of procNames) out.afterRssMB[name] = procStat(children[name].pid).rssKB / 1024;
  } finally {
    for (const c of Object.values(children)) await stopServer(c);
  }
  return out;
}
