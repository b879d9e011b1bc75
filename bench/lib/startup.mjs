// Start-up: spawn() → first good tools/list (polled every 5 ms on fresh connections), interleaved
// across servers, median of `runs`.
import { fileURLToPath } from 'node:url';
import { port } from './targets.mjs';
import { median } from './stats.mjs';
import { startServer, stopServer, waitUntil } from './procs.mjs';
import { messageOf, modernBody, modernHeaders, post } from './wire.mjs';

const file = (name) => fileURLToPath(new URL(`../servers/${name}`, import.meta.url));
const SERVERS = [
  { label: 'ours, 1 tool', file: file('ours.cjs'), env: { TOOLS: 'echo' }, tools: 1 },
  { label: 'ours, 200 tools', file: file('ours.cjs'), env: { TOOLS: 'echo', NTOOLS: '200' }, tools: 200 },
  { label: 'sdk-v2, 1 tool', file: file('sdk-v2.mjs'), env: { TOOLS: 'echo' }, tools: 1 },
  { label: 'sdk-v2, 200 tools', file: file('sdk-v2.mjs'), env: { TOOLS: 'echo', NTOOLS: '200' }, tools: 200 },
  { label: 'raw node:http', file: file('raw.mjs'), env: {}, tools: 1 },
];
const PORT = port(4261);

async function listed(tools) {
  const r = await post(PORT, modernHeaders('tools/list'), modernBody('tools/list'), 2000);
  return r.status === 200 && messageOf(r.text).result?.tools?.length === tools;
}

export async function measureStartup(runs = 5) {
  const rows = [];
  for (let run = 1; run <= runs; run++) {
    for (const s of SERVERS) {
      const t0 = process.hrtime.bigint();
      const child = startServer(s.file, { ...s.env, PORT: String(PORT) });
      try {
        await waitUntil(() => listed(s.tools), { everyMs: 5, timeoutMs: 30_000, what: s.label, child });
        rows.push({ label: s.label, run, ms: Number(process.hrtime.bigint() - t0) / 1e6 });
      } finally {
        await stopServer(child);
      }
      await new Promise((r) => setTimeout(r, 200)); // let the port and the core settle
    }
  }
  const summary = SERVERS.map((s) => {
    const ms = rows.filter((r) => r.label === s.label).map((r) => r.ms);
    return { label: s.label, medianMs: median(ms), minMs: Math.min(...ms), maxMs: Math.max(...ms), perRun: ms };
  });
  return { rows, summary };
}
