// Start-up A/B while optimising (not part of the report): spawn → first good tools/list of the bench
// server (ours.cjs, 200 tools by default) from the current dist/cjs ("new") and from a saved copy
// ("base"), alternating; wall ms, server CPU ms (/proc utime+stime) and RSS at that moment, medians.
//
//   node bench/startup-ab.mjs --base bench/out/base/cjs [--runs 8] [--ntools 200] [--sdk]
//     --sdk adds the SDK v2 peer with the same tools to every round.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { port } from './lib/targets.mjs';
import { median } from './lib/stats.mjs';
import { CLK_TCK, pinSelf, procStat, startServer, stopServer, waitUntil } from './lib/procs.mjs';
import { messageOf, modernBody, modernHeaders, post } from './lib/wire.mjs';

const { values: a } = parseArgs({ options: {
  base: { type: 'string' }, runs: { type: 'string', default: '8' }, ntools: { type: 'string', default: '200' },
  sdk: { type: 'boolean', default: false },
} });
pinSelf(1);
const PORT = port(4262);
const ntools = Number(a.ntools);
const file = (name) => fileURLToPath(new URL(`./servers/${name}`, import.meta.url));
const env = { TOOLS: 'echo', NTOOLS: String(ntools), PORT: String(PORT) };
const servers = [
  { label: 'new', file: file('ours.cjs'), env: { ...env, OMC_DIST: resolve('dist/cjs') } },
  ...(a.base ? [{ label: 'base', file: file('ours.cjs'), env: { ...env, OMC_DIST: resolve(a.base) } }] : []),
  ...(a.sdk ? [{ label: 'sdk-v2', file: file('sdk-v2.mjs'), env }] : []),
];

async function listed() {
  const r = await post(PORT, modernHeaders('tools/list'), modernBody('tools/list'), 2000);
  return r.status === 200 && messageOf(r.text).result?.tools?.length === ntools;
}

const rows = Object.fromEntries(servers.map((s) => [s.label, { ms: [], cpuMs: [], rssMB: [] }]));
for (let run = 0; run < Number(a.runs); run++) {
  for (const s of run % 2 ? [...servers].reverse() : servers) {
    const t0 = process.hrtime.bigint();
    const child = startServer(s.file, s.env);
    try {
      await waitUntil(listed, { everyMs: 5, timeoutMs: 30_000, what: s.label, child });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      // the taskset wrapper execs node, so the pid is the server's
      const st = procStat(child.pid);
      rows[s.label].ms.push(ms);
      rows[s.label].cpuMs.push((st.cpuTicks * 1000) / CLK_TCK);
      rows[s.label].rssMB.push(st.rssKB / 1024);
    } finally {
      await stopServer(child);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}
const f = (xs) => median(xs).toFixed(0);
console.table(Object.entries(rows).map(([label, r]) => ({
  label, wallMs: f(r.ms), cpuMs: f(r.cpuMs), rssMB: median(r.rssMB).toFixed(1),
  perRun: r.ms.map((x) => x.toFixed(0)).join(' '),
})));
