// Tables of the field benchmark, cold launch, installed size and the unused-vs-used feature rows
// (issue 34), shared by the console (console.table) and RESULTS.md (lib/report.mjs).
const n = (v, d = 0) => (Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : '–');

function field(f) {
  const o = f.options;
  const rows = f.summary.map((r) => ({ wire: r.wire, server: r.server, 'legacy clients': r.legacy, 'median ops/s': n(r.opsPerSec),
    'per round': r.perRound.map((x) => n(x)).join(' · '), 'server CPU µs/op': n(r.cpuUsPerOp), 'RSS MB': n(r.rssMB), 'load-gen % of a core': n(r.loadgenPct), 'bad / good': `${r.bad} / ${n(r.good)}` }));
  const leads = f.leads.map((l) => ({ wire: l.wire, 'ours ÷': l.peer, 'ops/s ratio (median of rounds)': n(l.opsRatio, 2), 'per round': l.perRound.map((x) => n(x, 2)).join(' · '),
    'server CPU per op, peer ÷ ours': n(l.cpuRatio, 2), 'we lead': l.lead ? 'yes' : '**no**' }));
  const lost = f.leads.filter((l) => !l.lead);
  return [
    { title: `The field's workload: ${o.users} users ramping over ${o.rampS} s, ${o.holdS} s measured, ${o.rounds} rotated round(s), a fresh server per slot`, rows },
    { title: 'Which rows we lead (ours ÷ peer, round by round)', rows: leads, notes: [
      `Load generator (this process, CPU 1): ${n(f.loadgen.cpuS, 1)} s CPU over ${n(f.loadgen.wallS, 1)} s, ${n(f.loadgen.pctOfCore)} % of one core on average.`,
      lost.length ? `Rows not led: ${lost.map((l) => `${l.peer} on ${l.wire}`).join(', ')}.` : `We lead all ${f.leads.length} rows.`,
    ] },
  ];
}

function launch(l) {
  return [{ title: `Cold launch: spawn → first answered tools/call (${l.warm} warm-ups, ${l.launches} timed starts per server, interleaved)`,
    rows: l.rows.map((r) => ({ server: r.server, wire: r.wire, 'median ms': n(r.medianMs), 'p90 ms': n(r.p90Ms), 'server CPU ms': n(r.cpuMs), 'peak RSS MB': n(r.peakRssMB),
      'ours ÷ this (ms)': n(r.oursOverMs, 2), 'ours ÷ this (CPU)': n(r.oursOverCpu, 2) })) }];
}

function size(rows) {
  return [{ title: 'Installed size of a minimal server app (production dependencies only: npm install --omit=dev into an empty folder)',
    rows: rows.map((r) => ({ app: r.app, packages: r.packages, MiB: n(r.MiB, 1), 'ours ÷ this': n(r.oursOver, 2), 'largest packages (MiB)': r.largest, what: r.note })) }];
}

function features(fe) {
  return [
    { title: 'New features unused: this build ÷ a build without them (in-process echo, CPU per request, alternating fresh processes)',
      rows: fe.unused.map((u) => ({ feature: u.feature, 'base build': u.base, kind: u.kind, 'new ÷ base CPU/req (median)': n(u.ratio, 3), 'per round': u.perRound.map((x) => n(x, 3)).join(' · '),
        '≤ 1.05': u.ratio <= 1.05 ? 'yes' : '**no**' })) },
    { title: 'New features used: the echo row with each feature in use, beside the same echo without it (same run)',
      rows: fe.used.map((u) => ({ row: u.label, 'median ops/s': n(u.opsPerSec), 'server CPU µs/op': n(u.cpuUsPerOp), 'ops/s ÷ plain echo': n(u.opsRatio, 3), 'CPU/op ÷ plain echo': n(u.cpuRatio, 3), bad: u.bad })) },
  ];
}

/** [{ title, rows, notes? }] for whichever sections `results` holds. */
export function fieldTables(results) {
  return [
    ...(results.field ? field(results.field) : []),
    ...(results.launch ? launch(results.launch) : []),
    ...(results.size ? size(results.size) : []),
    ...(results.features ? features(results.features) : []),
  ];
}
