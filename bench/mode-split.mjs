// MRTR in HMAC vs AES-GCM mode (or any two server processes), alternating in one run: per flow, the
// server's user and kernel CPU (every thread, from /proc), its main thread vs the others, minor page
// faults, voluntary and involuntary context switches, read/write syscalls, and how often the load
// generator was woken. With --strace, also the server's syscalls per flow (`strace -c -f`, which slows
// the server: read its counts, not its times); with --perf, cpu-clock samples turned into µs of CPU
// per flow by category: kernel, OpenSSL, node::crypto, GC, V8 builtins, JIT code (`perf record`; with
// `--node-arg=--perf-basic-prof` the JIT code is split into ours and node's). Asserts nothing; compare the rows of one run.
//
//   node bench/mode-split.mjs [--procs ours-mrtr-hmac,ours-mrtr-aes] [--rounds 3] [--seconds 5] [--warmup 2] [--strace] [--perf]
//   node bench/mode-split.mjs --procs ours-mrtr-hmac,floor-mrtr-hmac --perf --node-arg=--perf-basic-prof
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PROCESSES } from './lib/targets.mjs';
import { CLK_TCK, pinSelf, startServer, stopServer, waitUntil } from './lib/procs.mjs';
import { runLoad } from './lib/load.mjs';
import { listening } from './lib/wire.mjs';

const { values: a } = parseArgs({ options: {
  procs: { type: 'string', default: 'ours-mrtr-hmac,ours-mrtr-aes' }, rounds: { type: 'string', default: '3' },
  seconds: { type: 'string', default: '5' }, warmup: { type: 'string', default: '2' }, strace: { type: 'boolean', default: false }, perf: { type: 'boolean', default: false },
  'node-arg': { type: 'string', multiple: true, default: [] }, env: { type: 'string', multiple: true, default: [] },
} });
const extraEnv = Object.fromEntries(a.env.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const US_PER_TICK = 1e6 / CLK_TCK;
const procs = a.procs.split(',');
const seconds = Number(a.seconds);
pinSelf(1);

function sample(pid) {
  const s = { user: 0, system: 0, mainUs: 0, otherUs: 0, minflt: 0, vcsw: 0, ivcsw: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat, status, sched;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      sched = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8');
    } catch { continue; }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    s.user += Number(f[11]) * US_PER_TICK;
    s.system += Number(f[12]) * US_PER_TICK;
    s.minflt += Number(f[7]);
    const onCpuUs = Number(sched.split(' ')[0]) / 1000;
    if (tid === String(pid)) s.mainUs += onCpuUs; else s.otherUs += onCpuUs;
    s.vcsw += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)[1]);
    s.ivcsw += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)[1]);
  }
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  s.reads = Number(/syscr:\s+(\d+)/.exec(io)[1]);
  s.writes = Number(/syscw:\s+(\d+)/.exec(io)[1]);
  return s;
}
const wakeups = () => Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))[1]);

/** A tracer attached to `pid` for the measured window; resolves to its report text once stopped. */
function attach(kind, pid, dir) {
  const args = kind === 'strace'
    ? ['strace', ['-c', '-f', '-p', String(pid), '-o', join(dir, 'strace.txt')]]
    : ['perf', ['record', '-e', 'cpu-clock', '-F', '2999', '-p', String(pid), '-o', join(dir, 'perf.data'), '-q']];
  const child = spawn(args[0], args[1], { stdio: 'ignore' });
  return {
    ready: new Promise((r) => setTimeout(r, 500)),
    async stop() {
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await done;
      if (kind === 'strace') return readFileSync(join(dir, 'strace.txt'), 'utf8');
      return execFileSync('perf', ['report', '-i', join(dir, 'perf.data'), '--stdio', '--sort', 'dso,sym', '-q', '--show-nr-samples', '--percent-limit', '0'],
        { encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
    },
  };
}

/** perf samples by category, in µs of CPU per flow (a sample is 1/2999 s of CPU). */
const US_PER_SAMPLE = 1e6 / 2999;
function categories(report, flows) {
  const sums = {};
  for (const line of report.split('\n')) {
    const m = /^\s*[\d.]+%\s+(\d+)\s+(.+?)\s+\[.\]\s+(.*)$/.exec(line); // a DSO may hold spaces: "[JIT] tid 123"
    if (!m) continue;
    const [, n, dso, sym] = m;
    const cat = dso.startsWith('[kernel') ? 'kernel'
      : sym.startsWith('node::crypto') ? 'node::crypto'
      : !/^(v8|node)::/.test(sym) && /EVP_|ossl_|OSSL_|aesni|gcm|CRYPTO_|OPENSSL_|OBJ_|sha256|SHA256|evp_|aes_|ERR_/.test(sym) ? 'OpenSSL'
      : /Scaveng|GlobalHandles|ArrayBufferSweeper|Heap::|Mark|Sweep|Evacuat|WeakCallback|BaseObject/.test(sym) ? 'GC and handles'
      : /compiler::|maglev|Compiler/.test(sym) ? 'compile'
      // With --node-arg=--perf-basic-prof the JIT code is named: ours (the bundles) apart from node's and the rest.
      : dso.startsWith('[JIT]') ? (/bundle[\w-]*\.code\.js|dist\/cjs/.test(sym) ? 'JIT code, ours' : /node:/.test(sym) ? 'JIT code, node' : 'JIT code')
      : sym.startsWith('Builtins_') ? 'V8 builtins (ICs, calls, promises)'
      : dso.startsWith('libc') ? 'libc' : 'node and V8, other';
    sums[cat] = (sums[cat] ?? 0) + Number(n);
  }
  return Object.fromEntries(Object.entries(sums).sort((x, y) => y[1] - x[1]).map(([k, n]) => [k, ((n * US_PER_SAMPLE) / flows).toFixed(1)]));
}

const rows = [];
const perfRows = [];
for (let round = 1; round <= Number(a.rounds); round++) {
  const order = round % 2 ? procs : [...procs].reverse();
  for (const name of order) {
    const p = PROCESSES[name];
    const spec = { kind: 'mrtr', label: name };
    const child = startServer(p.file, { ...p.env, ...extraEnv, PORT: String(p.port) }, { nodeArgs: a['node-arg'] });
    try {
      await waitUntil(() => listening(p.port), { what: name, child });
      const common = { port: p.port, pid: child.pid, prepared: { body: '' }, connections: 32 };
      await runLoad(spec, { ...common, seconds: Number(a.warmup), record: false });
      const tracer = a.strace || a.perf ? attach(a.strace ? 'strace' : 'perf', child.pid, mkdtempSync(join(tmpdir(), 'mode-split-'))) : undefined;
      await tracer?.ready;
      const s0 = sample(child.pid), w0 = wakeups();
      const r = await runLoad(spec, { ...common, seconds });
      const s1 = sample(child.pid), w1 = wakeups();
      const report = await tracer?.stop();
      const flows = r.flowsPerSec * r.wall;
      const per = (k, digits = 1) => ((s1[k] - s0[k]) / flows).toFixed(digits);
      const row = {
        proc: name, round, 'flows/s': Math.round(r.flowsPerSec), 'user µs': per('user'), 'kernel µs': per('system'),
        'main thread µs': per('mainUs'), 'other threads µs': per('otherUs'), 'minflt': per('minflt', 2),
        'vol csw': per('vcsw', 2), 'invol csw': per('ivcsw', 2), 'reads': per('reads', 2), 'writes': per('writes', 2),
        'loadgen woken': ((w1 - w0) / flows).toFixed(2), bad: r.mismatches + r.non2xx + r.errors,
      };
      rows.push(row);
      console.log(JSON.stringify(row));
      if (report && a.perf) perfRows.push({ proc: name, round, ...categories(report, flows) });
      if (report && a.strace) console.log(`--- ${name} round ${round}: ${Math.round(flows)} flows ---\n${report}`);
    } finally {
      await stopServer(child);
    }
  }
}
console.table(rows);
if (perfRows.length) {
  console.log('perf cpu-clock samples, µs of server CPU per flow by category:');
  console.table(perfRows);
}
