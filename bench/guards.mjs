// Issue 16: what guards and interceptors cost on our request path (no sockets; see inproc.mjs).
// Rounds alternate, each in a fresh child pinned to CPU 0:
//   plain    — the echo tool with no guard (the pipeline is skipped),
//   guarded  — the same tool with one guard and one interceptor (GUARDS=1 in servers/ours.cjs),
//   base     — with --base <dist/cjs copy>: the echo tool from a saved build (e.g. before the pipeline).
// Prints CPU µs per request, the guarded ÷ plain overhead (target ≤ 10 %) and, with --base, plain ÷ base.
//
//   npm run build && node bench/guards.mjs [--kind call|mrtr] [--n 30000] [--rounds 5] [--base bench/out/base/cjs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROCESSES } from './lib/targets.mjs';
import { median } from './lib/stats.mjs';
import { pinned } from './lib/procs.mjs';

const { values: a } = parseArgs({ options: {
  kind: { type: 'string', default: 'call' }, n: { type: 'string', default: '30000' },
  rounds: { type: 'string', default: '5' }, base: { type: 'string' },
} });
const proc = a.kind === 'mrtr' ? 'ours-mrtr-hmac' : 'ours-echo';
const inproc = fileURLToPath(new URL('./inproc.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../dist/cjs', import.meta.url));
const sides = [
  { name: 'plain', dist, env: {} },
  { name: 'guarded', dist, env: { GUARDS: '1' } },
  ...(a.base ? [{ name: 'base', dist: resolve(a.base), env: {} }] : []),
];
for (const s of sides) s.rows = [];

for (let r = 0; r < Number(a.rounds); r++) {
  for (const s of r % 2 ? [...sides].reverse() : sides) {
    const [cmd, args] = pinned(0, [process.execPath, '--expose-gc', inproc, '--child', '--proc', proc, '--kind', a.kind, '--n', a.n]);
    const out = spawnSync(cmd, args, { env: { ...process.env, ...PROCESSES[proc].env, ...s.env, OMC_DIST: s.dist }, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${s.name}: ${out.stderr}`);
    const row = JSON.parse(out.stdout.trim().split('\n').pop());
    s.rows.push(row.cpuUs);
    console.log(`round ${r + 1} ${s.name}: ${row.cpuUs.toFixed(2)} µs CPU/req`);
  }
}
const by = Object.fromEntries(sides.map((s) => [s.name, s.rows]));
const ratio = (x, y) => by[x].map((v, i) => v / by[y][i]);
for (const s of sides) console.log(`${s.name}: median ${median(s.rows).toFixed(2)} µs CPU/req (${a.kind})`);
const overhead = ratio('guarded', 'plain');
console.log(`guarded ÷ plain: median ${median(overhead).toFixed(3)} (${overhead.map((x) => x.toFixed(3)).join(' ')}) → overhead ${((median(overhead) - 1) * 100).toFixed(1)} % (target ≤ 10 %)`);
if (a.base) {
  const before = ratio('plain', 'base');
  console.log(`plain ÷ base: median ${median(before).toFixed(3)} (${before.map((x) => x.toFixed(3)).join(' ')})`);
}
