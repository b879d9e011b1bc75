// Where a server's CPU per request goes over sockets: user vs kernel time (from /proc, every thread),
// and how often the load generator had to be woken per response (its voluntary context switches).
// A response that wakes a sleeping load generator costs the server's `writev` a cross-CPU wake-up,
// which on this VM is dear; the kernel share of a scenario follows that rate. Asserts nothing.
//
//   node bench/cpu-split.mjs [--proc ours-mrtr-aes] [--kind mrtr] [--runs 3] [--seconds 5] [--gc]
//   node bench/cpu-split.mjs --proc ours-echo --kind session
//
// Each run starts a fresh server (pinned to CPU 0 like bench.mjs), warms it for 2 s, then measures.
// The server's CPU is split into its main thread and the rest (V8's GC helper threads, libuv's pool).
// --gc runs the server with --trace-gc-nvp and prints, for the measured window, the share of each
// young generation that survived its scavenge, scavenge pause per request and the full GCs: a
// survival that stays in the tens of percent means request objects are being promoted (see
// bench/profile-notes.md, "Young-generation survival").
//
// --node-arg FLAG (repeatable) starts the server with that node/V8 flag, e.g. to test a GC hypothesis:
//   node bench/cpu-split.mjs --proc ours-echo --kind session --gc --node-arg=--no-allocation-site-pretenuring
// With --gc, the server's other stdout lines (e.g. --trace-pretenuring-statistics) go to stderr.
//
// --env KEY=VALUE (repeatable) adds to the server's environment. With EXTRA=js|hash|hmac|aes the echo
// tool does one extra operation per call (plain JavaScript or node:crypto; servers/extra-work.cjs), and the same operation is
// first timed in a tight loop here, so its cost inside a served request can be read against it:
//   node bench/cpu-split.mjs --proc ours-echo --kind call --env EXTRA=aes   (and without --env)
//
// Set OMC_DIST to measure another build (by default the servers load this checkout's dist/cjs).
import { readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import { PROCESSES, ECHO } from './lib/targets.mjs';
import { CLK_TCK, pinSelf, startServer, stopServer, waitUntil } from './lib/procs.mjs';
import { runLoad } from './lib/load.mjs';
import { prepare } from './lib/prepare.mjs';
import { listening } from './lib/wire.mjs';

const { values: a } = parseArgs({ options: {
  proc: { type: 'string', default: 'ours-mrtr-aes' }, kind: { type: 'string', default: 'mrtr' },
  runs: { type: 'string', default: '3' }, seconds: { type: 'string', default: '5' },
  gc: { type: 'boolean', default: false }, env: { type: 'string', multiple: true, default: [] },
  'node-arg': { type: 'string', multiple: true, default: [] },
} });
const extraEnv = Object.fromEntries(a.env.map((kv) => {
  const at = kv.indexOf('=');
  if (at < 1) throw new Error(`--env wants KEY=VALUE, got ${kv}`);
  return [kv.slice(0, at), kv.slice(at + 1)];
}));
const US_PER_TICK = 1e6 / CLK_TCK;

/** user and system ticks summed over the process's threads; `helpers`: all but the main thread. */
function ticks(pid) {
  let user = 0, system = 0, helpers = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    user += Number(f[11]);
    system += Number(f[12]);
    if (tid !== String(pid)) helpers += Number(f[11]) + Number(f[12]);
  }
  return { user, system, helpers };
}

/** One --trace-gc-nvp line's fields (`gc=s` is a scavenge, `gc=mc` a full mark-compact). */
function gcEvent(line) {
  const field = (name) => /** @type {string | undefined} */ (new RegExp(`\\b${name}=([^ ]+)`).exec(line)?.[1]);
  const kind = field('gc');
  return kind ? { kind, pause: Number(field('pause')), allocated: Number(field('allocated') ?? 0), survived: Number(field('new_space_survived') ?? 0) } : undefined;
}

function gcSummary(lines, requests) {
  const events = lines.map(gcEvent).filter(Boolean);
  const scavenges = events.filter((e) => e.kind === 's');
  const allocated = scavenges.reduce((n, e) => n + e.allocated, 0);
  const survived = scavenges.reduce((n, e) => n + e.survived, 0);
  const pause = scavenges.reduce((n, e) => n + e.pause, 0);
  const full = events.filter((e) => e.kind === 'mc').length;
  return `young GCs ${scavenges.length}, ${allocated ? ((100 * survived) / allocated).toFixed(1) : '-'} % survived, ` +
    `scavenge pause ${((pause * 1000) / requests).toFixed(1)} µs/req; full GCs ${full}`;
}

/** Read and write syscalls so far (/proc/<pid>/io): a request split over two reads shows here. */
function syscalls(pid) {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return { reads: Number(/syscr:\s+(\d+)/.exec(io)[1]), writes: Number(/syscw:\s+(\d+)/.exec(io)[1]) };
}

function sleeps(pid) {
  return Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}

const p = PROCESSES[a.proc];
if (!p) throw new Error(`unknown --proc ${a.proc}`);
const spec = { kind: a.kind, label: a.proc, call: a.kind === 'mrtr' ? undefined : ECHO, expectText: 'hello' };
const seconds = Number(a.seconds);
pinSelf(1);
if (extraEnv.EXTRA) {
  const work = createRequire(import.meta.url)('./servers/extra-work.cjs').extraWork(extraEnv.EXTRA);
  for (let i = 0; i < 20_000; i++) work();
  const n = 100_000, t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) work();
  const t = process.cpuUsage(t0);
  console.log(`EXTRA=${extraEnv.EXTRA} in a tight loop: ${((t.user + t.system) / n).toFixed(2)} µs CPU per operation`);
}
for (let run = 1; run <= Number(a.runs); run++) {
  const nodeArgs = [...a['node-arg'], ...(a.gc ? ['--trace-gc-nvp'] : [])];
  const child = startServer(p.file, { ...p.env, ...extraEnv, PORT: String(p.port) }, a.gc ? { nodeArgs, stdout: 'pipe' } : { nodeArgs });
  const gcLines = [];
  if (a.gc) createInterface({ input: child.stdout }).on('line', (l) => {
    // Other trace output (a --node-arg such as --trace-pretenuring-statistics) is passed through.
    if (/\bgc=/.test(l)) gcLines.push(l);
    else console.error(`server: ${l}`);
  });
  try {
    await waitUntil(() => listening(p.port), { what: a.proc, child });
    const prepared = await prepare(spec, p.port);
    const common = { port: p.port, pid: child.pid, prepared, connections: 32 };
    await runLoad(spec, { ...common, seconds: 2, record: false });
    const t0 = ticks(child.pid), w0 = sleeps(process.pid), io0 = syscalls(child.pid), g0 = gcLines.length;
    const r = await runLoad(spec, { ...common, seconds });
    const t1 = ticks(child.pid), w1 = sleeps(process.pid), io1 = syscalls(child.pid), g1 = gcLines.length;
    const requests = r.rps * seconds;
    const per = (d) => ((d * US_PER_TICK) / requests).toFixed(1);
    console.log(
      `${a.proc} ${a.kind} run ${run}: ${Math.round(r.rps)} req/s; server user ${per(t1.user - t0.user)} + ` +
        `kernel ${per(t1.system - t0.system)} µs/req (helper threads ${per(t1.helpers - t0.helpers)}); ${((io1.reads - io0.reads) / requests).toFixed(2)} reads and ` +
        `${((io1.writes - io0.writes) / requests).toFixed(2)} writes per request; load generator woken ${((w1 - w0) / requests).toFixed(2)}× per response; mismatches ${r.mismatches}, non-2xx ${r.non2xx}`,
    );
    if (a.gc) console.log(`  ${gcSummary(gcLines.slice(g0, g1), requests)}`);
  } finally {
    await stopServer(child);
  }
}
