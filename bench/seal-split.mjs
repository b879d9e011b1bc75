// Where an AES-GCM seal's time goes, against the HMAC seal's, in one process: per operation, the wall
// time around the operation alone (median: robust to preemption on a shared machine), user and kernel
// CPU (getrusage), CPU of the threads other than the main one (V8's GC helpers, e.g. array-buffer
// sweeping; /proc/self/task/*/schedstat), minor page faults and context switches. Each operation runs hot
// (a tight loop) and cold (after a step that evicts the caches; in the CPU columns that step's own cost,
// measured alone, is subtracted), in alternating rounds. Asserts nothing; compare the rows of one run.
// OPENSSL_ia32cap=:~0x20000000 masks SHA-NI, which valgrind never offers (bench/profile-notes.md).
//
//   node bench/seal-split.mjs [--ops 20000] [--rounds 5] [--bytes 360] [--only aes,hmac]
// Instructions per seal: --count N runs 5 000 warm-up operations then N of the one --only names, and
// nothing else; difference the callgrind totals of two N, e.g.
//   valgrind --tool=callgrind node --predictable bench/seal-split.mjs --only aes --count 2000   (and 12000)
import { createCipheriv, createSecretKey, hash, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({ options: {
  ops: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' },
  bytes: { type: 'string', default: '360' }, only: { type: 'string', default: '' }, count: { type: 'string' },
} });
const OPS = Number(a.ops);
const claims = randomBytes(Number(a.bytes));
const aad = randomBytes(36);
const rawKey = randomBytes(32);
const keyObject = createSecretKey(randomBytes(32));
const ivs = randomBytes(12 * 4096);
const iv = (i) => ivs.subarray(12 * (i & 4095), 12 * (i & 4095) + 12);
// The HMAC seal: two one-shot SHA-256 over [pad ‖ message] and [pad ‖ digest] (src/state/hmac-sha256.ts).
const inner = randomBytes(64 + 4 + claims.length);
const outer = randomBytes(96);

const OPERATIONS = {
  'hmac (2 × hash)': () => { hash('sha256', inner, 'binary'); hash('sha256', outer, 'binary'); },
  'aes (KeyObject, 5 calls)': (i) => {
    const c = createCipheriv('aes-256-gcm', keyObject, iv(i)); c.setAAD(aad); c.update(claims); c.final(); c.getAuthTag();
  },
  'aes (Buffer key)': (i) => {
    const c = createCipheriv('aes-256-gcm', rawKey, iv(i)); c.setAAD(aad); c.update(claims); c.final(); c.getAuthTag();
  },
  'createCipheriv alone': (i) => { createCipheriv('aes-256-gcm', keyObject, iv(i)); },
};
const names = a.only ? Object.keys(OPERATIONS).filter((n) => a.only.split(',').some((w) => n.startsWith(w))) : Object.keys(OPERATIONS);

// Evicts L1/L2 and much of the L3 share: touch one int per 64-byte line of 8 MiB, and run some unrelated JS.
const THRASH = new Int32Array(2 * 1024 * 1024);
let sink = 0;
function thrash() {
  for (let i = 0; i < THRASH.length; i += 16 * 8) sink += THRASH[i]++; // 16 ints = 64 B: 1 line of 8
}

/** ns on CPU of every thread but the main one (schedstat: exact, not tick-sampled). */
function helpersNs() {
  let ns = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    if (tid === String(process.pid)) continue;
    try { ns += Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]); } catch { /* gone */ }
  }
  return ns;
}
const mainNs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);

function measure(run, cold, n) {
  const h0 = helpersNs(), m0 = mainNs(), r0 = process.resourceUsage();
  const ns = new Float64Array(n);
  const clock = process.hrtime.bigint;
  for (let i = 0; i < n; i++) {
    if (cold) thrash();
    const t0 = clock();
    run(i);
    ns[i] = Number(clock() - t0);
  }
  const r1 = process.resourceUsage(), m1 = mainNs(), h1 = helpersNs();
  ns.sort();
  return {
    // Per-operation wall time around the operation alone (the cache-evicting step is outside it): the median
    // is robust to preemption by other processes on a shared machine.
    p50: ns[n >> 1] / 1000, p25: ns[n >> 2] / 1000,
    user: (r1.userCPUTime - r0.userCPUTime) / n, sys: (r1.systemCPUTime - r0.systemCPUTime) / n,
    main: (m1 - m0) / 1000 / n, helpers: (h1 - h0) / 1000 / n,
    minflt: (r1.minorPageFault - r0.minorPageFault) / n,
    csw: (r1.voluntaryContextSwitches - r0.voluntaryContextSwitches + r1.involuntaryContextSwitches - r0.involuntaryContextSwitches) / n,
  };
}

if (a.count !== undefined) {
  const run = OPERATIONS[names[0]];
  for (let i = 0; i < 5000 + Number(a.count); i++) run(i);
  process.exit(0);
}

const noop = () => {};
for (const name of names) for (let i = 0; i < 5000; i++) OPERATIONS[name](i); // warm-up, JIT
const results = new Map();
const add = (key, r) => { if (!results.has(key)) results.set(key, []); results.get(key).push(r); };
for (let round = 0; round < Number(a.rounds); round++) {
  const order = round % 2 ? [...names].reverse() : names;
  add('thrash alone', measure(noop, true, OPS / 4));
  for (const name of order) {
    add(`${name} hot`, measure(OPERATIONS[name], false, OPS));
    add(`${name} cold`, measure(OPERATIONS[name], true, OPS / 4));
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const base = (key) => median(results.get('thrash alone').map((r) => r[key]));
const rows = [];
for (const [label, rs] of results) {
  if (label === 'thrash alone') continue;
  const cold = label.endsWith(' cold');
  const m = (key) => median(rs.map((r) => r[key])) - (cold && key !== 'p50' && key !== 'p25' ? base(key) : 0);
  rows.push({
    op: label, 'op p50 µs': m('p50').toFixed(2), 'op p25 µs': m('p25').toFixed(2), 'user µs': m('user').toFixed(2), 'sys µs': m('sys').toFixed(2),
    'other threads µs': m('helpers').toFixed(2), 'minflt': m('minflt').toFixed(3), 'ctx sw': m('csw').toFixed(4),
  });
}
console.log(`node ${process.version} (OpenSSL ${process.versions.openssl}); ${a.bytes} B of claims; ${OPS} ops hot, ${OPS / 4} cold, ` +
  `${a.rounds} alternating rounds, medians of rounds. "op p50/p25": wall time around the operation alone; CPU columns are ` +
  `per operation over the whole loop, with the cache-evicting step's own cost subtracted in "cold" rows`);
console.table(rows);
if (sink === 42) console.log('');
