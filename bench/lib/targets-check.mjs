// The issue #8 targets, read against a run's medians. The harness asserts nothing: this only
// labels each target "met" or "missed" for RESULTS.md.
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

/** [{target, measured, met}] for the targets this run has data for. */
export function checkTargets(results) {
  const out = [];
  const add = (target, value, met, shown) => out.push({ target, measured: shown ?? value.toFixed(2), met });
  const v2 = ratio(results, 'echo-2026', 'ours', 'sdk-v2');
  if (v2) add('tools/call echo 2026, 32 conns: ≥ 10× SDK v2 req/s', v2.median, v2.median >= 10, `${v2.median.toFixed(2)}× (server CPU per call: ${v2.cpuMedian.toFixed(2)}× less)`);
  const raw = ratio(results, 'echo-2026', 'ours', 'raw node:http');
  if (raw) add('… and ≥ 35 % of raw node:http', raw.median, raw.median >= 0.35, `${(100 * raw.median).toFixed(1)} %`);
  for (const c of [32, 1]) {
    const a = row(results, 'echo-2026', 'ours', c), b = row(results, 'echo-2026', 'sdk-v2', c);
    if (a && b) add(`p99 below SDK v2's (${c} conn${c > 1 ? 's' : ''})`, a.p99ms, a.p99ms < b.p99ms, `${a.p99ms.toFixed(2)} ms vs ${b.p99ms.toFixed(2)} ms`);
  }
  const flat = ratio(results, 'echo-200', 'ours, 200 tools', 'ours, 1 tool');
  if (flat) add('echo with 200 tools ≥ 0.9× the 1-tool rate', flat.median, flat.median >= 0.9, `${flat.median.toFixed(3)}×`);
  const aes = ratio(results, 'mrtr', 'ours AES-GCM state', 'sdk-v2 createRequestStateCodec');
  if (aes) add('MRTR flows, AES-GCM state: ≥ 8× SDK v2', aes.median, aes.median >= 8, `${aes.median.toFixed(2)}× (server CPU per flow: ${aes.cpuMedian.toFixed(2)}× less)`);
  const st = results.startup?.summary;
  if (st) {
    const ours = st.find((r) => r.label === 'ours, 200 tools'), sdk = st.find((r) => r.label === 'sdk-v2, 200 tools');
    add('start-up with 200 tools no slower than SDK v2', ours.medianMs / sdk.medianMs, ours.medianMs <= sdk.medianMs, `${ours.medianMs.toFixed(0)} ms vs ${sdk.medianMs.toFixed(0)} ms`);
  }
  const echo = byId(results, 'echo-2026');
  if (echo) {
    const a = echo.afterRssMB['ours-echo'], b = echo.afterRssMB['v2-echo'];
    add('RSS after load ≤ half of SDK v2\'s', a / b, a <= b / 2, `${a.toFixed(0)} MB vs ${b.toFixed(0)} MB (${(a / b).toFixed(2)}×)`);
  }
  for (const mode of ['HMAC-SHA256', 'AES-256-GCM']) {
    const r = results.stateCodec?.rows.find((x) => x.mode === mode && x.payload === '1 KiB');
    if (r) add(`seal+open of 1 KiB state ≤ 20 µs (${mode})`, r.sealUs + r.openUs, r.sealUs + r.openUs <= 20, `${(r.sealUs + r.openUs).toFixed(1)} µs`);
  }
  return out;
}
