// CPU profile of our server under the echo load: `node --cpu-prof`, 32 connections, 2026-07-28
// tools/call echo for N seconds (default 10). Writes profile-<proc>.json (summary) next to RESULTS.md and
// keeps the raw .cpuprofile under bench/out/prof/ (open it in Chrome DevTools).
// `--alloc`: a sampling allocation profile instead (lib/alloc-prof.cjs, collected objects kept): which
// functions allocate the bytes GC then collects; printed only (the raw profile stays under bench/out/prof/).
//   node bench/profile.mjs [--seconds 10] [--proc ours-echo] [--kind call|mrtr|list] [--out bench/] [--alloc]
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PROCESSES, load, FIXED, FIXED_TEXT } from './lib/targets.mjs';
import { pinSelf, startServer, stopServer, waitUntil } from './lib/procs.mjs';
import { listening } from './lib/wire.mjs';
import { prepare } from './lib/prepare.mjs';
import { runLoad } from './lib/load.mjs';
import { summarise } from './lib/cpu-profile.mjs';
import { summariseHeap } from './lib/heap-profile.mjs';
import { snapshotDist } from './lib/dist-snapshot.mjs';
import { sourceRevision } from './lib/machine.mjs';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, proc: { type: 'string', default: 'ours-echo' }, kind: { type: 'string', default: 'call' }, out: { type: 'string' }, alloc: { type: 'boolean', default: false } } });
const outDir = args.out ? args.out.replace(/\/?$/, '/') : fileURLToPath(new URL('./', import.meta.url));
const profDir = fileURLToPath(new URL(`./out/prof/${args.proc}`, import.meta.url));
rmSync(profDir, { recursive: true, force: true });
mkdirSync(profDir, { recursive: true });

pinSelf(1);
snapshotDist();
const p = PROCESSES[args.proc];
const spec = load(args.proc, args.proc, args.kind, { tools: Number(p.env.NTOOLS ?? 1), ...(p.env.TOOLS === 'fixed' ? { call: FIXED, expectText: FIXED_TEXT } : {}) });
const preload = fileURLToPath(new URL('./lib/exit-on-sigterm.cjs', import.meta.url));
const allocFile = `${profDir}/alloc.heapprofile`;
const nodeArgs = args.alloc ? ['-r', fileURLToPath(new URL('./lib/alloc-prof.cjs', import.meta.url))] : ['--cpu-prof', '--cpu-prof-dir', profDir, '-r', preload];
const child = startServer(p.file, { ...p.env, PORT: String(p.port), ALLOC_PROF_FILE: allocFile }, { nodeArgs });
let m;
try {
  await waitUntil(() => listening(p.port), { what: args.proc, child });
  const prepared = await prepare(spec, p.port);
  await runLoad(spec, { port: p.port, pid: child.pid, prepared, connections: 32, seconds: 2, record: false });
  if (args.alloc) child.kill('SIGUSR2');
  m = await runLoad(spec, { port: p.port, pid: child.pid, prepared, connections: 32, seconds: Number(args.seconds) });
} finally {
  await stopServer(child);
}
if (args.alloc) {
  const h = summariseHeap(JSON.parse(readFileSync(allocFile, 'utf8')));
  console.log(`${args.proc} ${args.kind}: ${m.rps.toFixed(0)} req/s; ≈ ${(h.totalBytes / m.responses).toFixed(0)} bytes allocated per response (sampled)`);
  console.table(h.byFile);
  console.table(h.byFunction);
  process.exit(0);
}
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
const summary = summarise(JSON.parse(readFileSync(`${profDir}/${file}`, 'utf8')));
const what = `${args.proc}, ${args.kind} load, 32 connections, ${args.seconds} s after a 2 s warm-up, ${process.version}, source ${sourceRevision()}`;
writeFileSync(`${outDir}profile-${args.proc}.json`, `${JSON.stringify({ what, requests: m.responses, rps: m.rps, cpuUsPerReq: m.cpuUsPerReq, ...summary }, null, 1)}\n`);
console.log(what, `${m.rps.toFixed(0)} req/s, ${m.cpuUsPerReq.toFixed(0)} µs CPU/req, bad ${m.mismatches + m.non2xx + m.errors}`);
console.table(summary.byFile);
console.table(summary.byFunction);
console.table(summary.inclusiveOurs);
