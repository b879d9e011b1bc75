// The issue #20 targets (which include #8's), read against a run's medians. The harness asserts
// nothing: this only labels each target "met" or "missed" for RESULTS.md.
import { scenarioRatios, scenarioSummary } from './ratios.mjs';

const byId = (results, id) => results.scenarios.find((s) => s.id === id);
const ratio = (results, id, ours, other, connections = 32) => {
  const s = byId(results, id);
  return s && scenarioRatios(s).find((r) => r.ours === ours && r.other === other && r.connections === connections);
};
const row = (results, id, label, connections = 32) => {
  const s = byId(results, id);
  return s && scenarioSummary(s).find((r) => r.label === label && r.connections === connections);
};
const x = (r, unit = 'call') => `${r.median.toFixed(2)}× (server CPU per ${unit}: ${r.cpuMedian.toFixed(2)}× less)`;

/** Heap per 1 000 idle legacy sessions in the run of 2026-12-02 (issue #8's closing figure): "as today or better". */
export const IDLE_SESSIONS_HEAP_MB_BEFORE = 1.38;

/** [{target, measured, met}] for the targets this run has data for. */
export function checkTargets(results) {
  const out = [];
  const add = (target, value, met, shown) => out.push({ target, measured: shown ?? value.toFixed(2), met });
  const fixed = ratio(results, 'fixed-2026', 'ours', 'sdk-v2');
  if (fixed) add('no-argument fixed-text tools/call 2026, 32 conns: ≥ 10× SDK v2 req/s', fixed.median, fixed.median >= 10, x(fixed));
  const fixedRaw = ratio(results, 'fixed-2026', 'ours', 'raw node:http');
  if (fixedRaw) add('… fixed-text: ≥ 40 % of raw node:http', fixedRaw.median, fixedRaw.median >= 0.4, `${(100 * fixedRaw.median).toFixed(1)} %`);
  {
    const a = row(results, 'fixed-2026', 'ours'), b = row(results, 'fixed-2026', 'sdk-v2');
    if (a && b) add('… fixed-text: p99 below SDK v2\'s (32 conns)', a.p99ms, a.p99ms < b.p99ms, `${a.p99ms.toFixed(2)} ms vs ${b.p99ms.toFixed(2)} ms`);
  }
  const v2 = ratio(results, 'echo-2026', 'ours', 'sdk-v2');
  if (v2) add('tools/call echo 2026, 32 conns: ≥ 12× SDK v2 req/s', v2.median, v2.median >= 12, x(v2));
  const raw = ratio(results, 'echo-2026', 'ours', 'raw node:http');
  if (raw) add('… echo: ≥ 40 % of raw node:http', raw.median, raw.median >= 0.4, `${(100 * raw.median).toFixed(1)} %`);
  for (const c of [32, 1]) {
    const a = row(results, 'echo-2026', 'ours', c), b = row(results, 'echo-2026', 'sdk-v2', c);
    if (a && b) add(`… echo: p99 below SDK v2's (${c} conn${c > 1 ? 's' : ''})`, a.p99ms, a.p99ms < b.p99ms, `${a.p99ms.toFixed(2)} ms vs ${b.p99ms.toFixed(2)} ms`);
  }
  // Issue 34: both modes, by flows/s and by server CPU per flow; the floor's ratio printed beside them.
  const hmac = ratio(results, 'mrtr', 'ours HMAC state', 'sdk-v2 createRequestStateCodec');
  if (hmac) add('two-round MRTR flows, HMAC state + exactly-once flow store: ≥ 8× SDK v2 (flows/s and CPU per flow)', hmac.median, hmac.median >= 8 && hmac.cpuMedian >= 8, x(hmac, 'flow'));
  for (const [o, f] of [['ours HMAC state', 'floor: raw node:http + HMAC seal/open'], ['ours AES-GCM state', 'floor: raw node:http + AES-GCM seal/open']]) {
    const floor = ratio(results, 'mrtr', o, f);
    if (floor) out.push({ target: `… ${o} against its floor (two raw exchanges + one seal + one open): printed`, measured: `${floor.median.toFixed(2)}× the floor's flows/s, ${floor.cpuMedian.toFixed(2)}× its CPU efficiency`, met: true });
  }
  const aes = ratio(results, 'mrtr', 'ours AES-GCM state', 'sdk-v2 createRequestStateCodec');
  if (aes) add('two-round MRTR flows, AES-GCM state + exactly-once flow store: ≥ 8× SDK v2 (flows/s and CPU per flow)', aes.median, aes.median >= 8 && aes.cpuMedian >= 8, x(aes, 'flow'));
  const once = ratio(results, 'mrtr', 'ours AES-GCM + single-use state', 'sdk-v2 createRequestStateCodec');
  if (once) add('… the same with single-use tokens too: ≥ 8× SDK v2', once.median, once.median >= 8, x(once, 'flow'));
  const rss = [['echo-2026', 'ours-echo', 'v2-echo', ''], ['fixed-2026', 'ours-fixed', 'v2-fixed', ''],
    ['fixed-2026', 'ours-fixed-semi4', 'v2-fixed', ', ours with --max-semi-space-size=4 (a deployment flag)']];
  for (const [id, ours, v2proc, note] of rss) {
    const s = byId(results, id);
    const a = s?.afterRssMB[ours], b = s?.afterRssMB[v2proc];
    if (!a || !b) continue;
    add(`RSS after the 32-connection load (${id}${note}) ≤ half of SDK v2's`, a / b, a <= b / 2, `${a.toFixed(0)} MB vs ${b.toFixed(0)} MB (${(a / b).toFixed(2)}×)`);
  }
  const sessions = results.sessions?.summary.find((r) => r.label.startsWith('ours'));
  if (sessions) {
    const v = sessions.heapMBPer1000;
    add(`1 000 idle legacy sessions: heap as before (${IDLE_SESSIONS_HEAP_MB_BEFORE} MB) or better`, v, v <= IDLE_SESSIONS_HEAP_MB_BEFORE * 1.1, `${v.toFixed(2)} MB heap / 1 000 (10 % noise allowed)`);
  }
  for (const mode of ['HMAC-SHA256', 'AES-256-GCM']) {
    const r = results.stateCodec?.rows.find((y) => y.mode === mode && y.payload === '1 KiB');
    if (r) add(`seal+open of 1 KiB state ≤ 20 µs (${mode})`, r.sealUs + r.openUs, r.sealUs + r.openUs <= 20, `${(r.sealUs + r.openUs).toFixed(1)} µs`);
  }
  const flat = ratio(results, 'echo-200', 'ours, 200 tools', 'ours, 1 tool');
  if (flat) add('echo with 200 tools ≥ 0.9× the 1-tool rate', flat.median, flat.median >= 0.9, `${flat.median.toFixed(3)}×`);
  const st = results.startup?.summary;
  if (st) {
    const ours = st.find((r) => r.label === 'ours, 200 tools'), sdk = st.find((r) => r.label === 'sdk-v2, 200 tools');
    add('start-up with 200 tools no slower than SDK v2', ours.medianMs / sdk.medianMs, ours.medianMs <= sdk.medianMs, `${ours.medianMs.toFixed(0)} ms vs ${sdk.medianMs.toFixed(0)} ms`);
  }
  const legacy = ratio(results, 'echo-legacy', 'ours (session)', 'sdk-v1 (stateless)');
  if (legacy) add('legacy session echo ≥ 14× SDK v1', legacy.median, legacy.median >= 14, x(legacy));
  for (const r of layerRows(results)) out.push(r);
  for (const r of fieldRows(results)) out.push(r);
  return out;
}

/** Issue 34: the field's benchmark, cold launch, installed size, the new features unused (when run). */
function fieldRows(results) {
  const out = [];
  for (const l of results.field?.leads ?? []) {
    out.push({ target: `field workload ${l.wire}: ahead of ${l.peer}`, measured: `${l.opsRatio.toFixed(2)}× ops/s (server CPU per op: ${l.cpuRatio.toFixed(2)}× less)`, met: l.lead });
  }
  const launch = results.launch?.rows;
  const [lo, ls] = [launch?.find((r) => r.server === 'ours'), launch?.find((r) => r.server === 'sdk-v2')];
  if (lo && ls) out.push({ target: `cold launch to the first answered tools/call (${results.launch.launches} starts) ≤ SDK v2's`, measured: `${lo.medianMs.toFixed(0)} ms vs ${ls.medianMs.toFixed(0)} ms (CPU ${lo.cpuMs.toFixed(0)} vs ${ls.cpuMs.toFixed(0)} ms)`, met: lo.medianMs <= ls.medianMs });
  const [so, ss] = [results.size?.find((r) => r.app === 'ours'), results.size?.find((r) => r.app === 'sdk-v2')];
  if (so && ss) out.push({ target: 'installed size of a minimal server app < SDK v2\'s', measured: `${so.MiB.toFixed(1)} MiB vs ${ss.MiB.toFixed(1)} MiB${so.bytes < ss.bytes ? '' : ` (the largest packages in ours, MiB: ${so.largest}; why: "Installed size" in the profile notes below)`}`, met: so.bytes < ss.bytes });
  for (const u of results.features?.unused ?? []) {
    out.push({ target: `${u.feature} unused, ${u.kind}: ≤ 5 % slower than the build before it`, measured: `${u.ratio.toFixed(3)}× CPU per request`, met: u.ratio <= 1.05 });
  }
  return out;
}

/** Scenario `layers` (when run): each layer unused (≤ 5 % on echo) and used (printed). */
function layerRows(results) {
  const s = byId(results, 'layers');
  if (!s) return [];
  return scenarioRatios(s).filter((r) => r.other === 'ours, no layer' && r.connections === 32).map((r) => {
    const unused = r.ours.includes('unused');
    return {
      target: unused ? `${r.ours}: ≤ 5 % cost on echo` : `${r.ours}: cost printed`,
      measured: `${r.median.toFixed(3)}× the plain echo rate (server CPU: ${(1 / r.cpuMedian).toFixed(3)}×)`,
      met: unused ? r.median >= 0.95 : true,
    };
  });
}
