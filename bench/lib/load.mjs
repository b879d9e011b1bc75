// One measured load with autocannon: req/s from 2xx ÷ wall time, p50/p99 from per-response hrtime
// (float ms; autocannon's own histogram is whole ms), every response checked, server CPU from /proc.
import autocannon from 'autocannon';
import { CLK_TCK, procStat } from './procs.mjs';
import { percentile } from './stats.mjs';
import { legacyBody, legacyHeaders, modernBody, modernHeaders } from './wire.mjs';
import { bodyVerifier } from './check.mjs';

const ACCEPT = { action: 'accept', content: { confirm: true } };

/** autocannon options for a load; `prepared` holds what verification found (expected body, session id). */
function optionsFor(spec, port, prepared, counters) {
  const url = `http://127.0.0.1:${port}/mcp`;
  switch (spec.kind) {
    case 'call':
      return { url, method: 'POST', headers: { ...modernHeaders('tools/call', spec.call.name), ...spec.headers }, body: modernBody('tools/call', spec.call), expectBody: prepared.body };
    case 'list':
      return { url, method: 'POST', headers: modernHeaders('tools/list'), body: modernBody('tools/list'), expectBody: prepared.body };
    case 'legacy':
      return { url, method: 'POST', headers: legacyHeaders(), body: legacyBody('tools/call', spec.call), ...(prepared.body.startsWith('{') ? { expectBody: prepared.body } : { verifyBody: bodyVerifier(spec) }) };
    case 'session':
      // Every call on one session needs its own id (an id already in flight is refused).
      return { url, method: 'POST', headers: legacyHeaders(prepared.sessionId), body: legacyBody('tools/call', spec.call, '[<id>]'), idReplacement: true, verifyBody: bodyVerifier(spec) };
    case 'mrtr':
      return { url, requests: mrtrRequests(spec, counters) };
    default:
      throw new Error(`unknown load kind ${spec.kind}`);
  }
}

/** Round 1 must ask (input_required + requestState), round 2 must complete with the echoed text. */
function mrtrRequests(spec, counters) {
  const call = { name: 'confirm_echo', arguments: { text: 'hello' } };
  const headers = modernHeaders('tools/call', 'confirm_echo');
  return [
    { method: 'POST', headers, body: modernBody('tools/call', call),
      onResponse: (status, body, context) => {
        context.state = undefined;
        try {
          const r = JSON.parse(body).result;
          if (status === 200 && r?.resultType === 'input_required' && r.inputRequests?.confirm?.method === 'elicitation/create' && typeof r.requestState === 'string') context.state = r.requestState;
          else counters.bad++;
        } catch { counters.bad++; }
      } },
    { method: 'POST', headers,
      setupRequest: (req, context) => ({ ...req, body: modernBody('tools/call', { ...call, inputResponses: { confirm: ACCEPT }, requestState: context.state ?? 'missing' }) }),
      onResponse: (status, body) => {
        try {
          const r = JSON.parse(body).result;
          if (status === 200 && r?.resultType === 'complete' && r.content?.[0]?.text === 'hello') counters.flows++;
          else counters.bad++;
        } catch { counters.bad++; }
      } },
  ];
}

/** Runs one load for `seconds`; with `record`, keeps every latency and samples the server's CPU. */
export async function runLoad(spec, { port, pid, prepared, connections, seconds, record = true }) {
  const counters = { bad: 0, flows: 0 };
  const opts = { ...optionsFor(spec, port, prepared, counters), connections, pipelining: 1, duration: seconds, timeout: 10 };
  const latencies = [];
  const before = record ? procStat(pid) : undefined;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const instance = autocannon(opts);
  if (record) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  const r = await instance;
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (!record) return undefined;
  const own = process.cpuUsage(cpu0);
  const after = procStat(pid);
  const cpuSeconds = (after.cpuTicks - before.cpuTicks) / CLK_TCK;
  const sorted = Float64Array.from(latencies).sort();
  const ok = r['2xx'] - r.mismatches - counters.bad;
  return {
    connections, wall,
    rps: ok / wall,
    flowsPerSec: spec.kind === 'mrtr' ? counters.flows / wall : undefined,
    p50ms: percentile(sorted, 0.5), p99ms: percentile(sorted, 0.99),
    responses: r['2xx'] + r.non2xx,
    non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, mismatches: r.mismatches + counters.bad,
    serverCpuPct: (100 * cpuSeconds) / wall,
    // The load generator's own CPU: near 100 % would mean it, not the server, set the pace.
    loadgenCpuPct: (own.user + own.system) / 1e4 / wall,
    cpuUsPerReq: ok > 0 ? (1e6 * cpuSeconds) / ok : NaN,
    rssMB: after.rssKB / 1024, peakRssMB: after.hwmKB / 1024,
  };
}
