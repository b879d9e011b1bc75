// Per-round ratios (ours ÷ other load in the same round and connection count) and their medians.
import { median } from './stats.mjs';

const rate = (run) => run.flowsPerSec ?? run.rps;

/** Rows of {ours, other, connections, perRound[], median} for every ours×other pair. */
export function scenarioRatios(result) {
  const rows = [];
  const conns = [...new Set(result.runs.map((r) => r.connections))];
  result.loads.forEach((a, ia) => {
    if (!a.ours) return;
    result.loads.forEach((b, ib) => {
      if (ia === ib) return;
      for (const c of conns) {
        const pairs = result.runs
          .filter((r) => r.load === ia && r.connections === c)
          .map((ra) => [ra, result.runs.find((r) => r.load === ib && r.connections === c && r.round === ra.round)])
          .filter(([, rb]) => rb);
        const perRound = pairs.map(([ra, rb]) => rate(ra) / rate(rb));
        // Server CPU per unit, other ÷ ours: independent of how fast the load generator turns around.
        const unitCpu = (r) => (r.flowsPerSec !== undefined ? (r.cpuUsPerReq * r.rps) / r.flowsPerSec : r.cpuUsPerReq);
        const cpuPerRound = pairs.map(([ra, rb]) => unitCpu(rb) / unitCpu(ra));
        rows.push({
          ours: a.label, other: b.label, connections: c, perRound, median: median(perRound), cpuPerRound, cpuMedian: median(cpuPerRound),
          pooled: pooledRate(pairs.map(([ra]) => ra)) / pooledRate(pairs.map(([, rb]) => rb)),
          cpuPooled: pooledCpu(pairs.map(([, rb]) => rb)) / pooledCpu(pairs.map(([ra]) => ra)),
        });
      }
    });
  });
  return rows;
}

// Pooled over rounds: all units ÷ all wall time, all server CPU ÷ all units. A slow window of the machine
// then weighs by its length instead of deciding a median of few rounds.
const units = (r) => (r.flowsPerSec ?? r.rps) * r.wall;
const pooledRate = (runs) => runs.reduce((s, r) => s + units(r), 0) / runs.reduce((s, r) => s + r.wall, 0);
const pooledCpu = (runs) => runs.reduce((s, r) => s + r.cpuUsPerReq * r.rps * r.wall, 0) / runs.reduce((s, r) => s + units(r), 0);

/** Medians per load and connection count. */
export function scenarioSummary(result) {
  const rows = [];
  const conns = [...new Set(result.runs.map((r) => r.connections))];
  for (const c of conns) {
    result.loads.forEach((l, i) => {
      const runs = result.runs.filter((r) => r.load === i && r.connections === c);
      const m = (k) => median(runs.map((r) => r[k]));
      rows.push({
        label: l.label, connections: c, rps: m('rps'), flowsPerSec: l.kind === 'mrtr' ? m('flowsPerSec') : undefined,
        p50ms: m('p50ms'), p99ms: m('p99ms'), cpuUsPerReq: m('cpuUsPerReq'), serverCpuPct: m('serverCpuPct'), loadgenCpuPct: m('loadgenCpuPct'),
        bad: runs.reduce((s, r) => s + r.non2xx + r.errors + r.timeouts + r.mismatches, 0),
        responses: runs.reduce((s, r) => s + r.responses, 0),
        rssAfterMB: result.afterRssMB[l.proc], peakRssMB: Math.max(...runs.map((r) => r.peakRssMB)),
      });
    });
  }
  return rows;
}
