// Our request path without sockets: the bench app (servers/ours.cjs) behind its HttpEndpoint, fed
// request views and a recording sink, `--concurrency` requests in flight. Measures what our code
// costs per request (CPU µs from process.cpuUsage, GC count and time) with no kernel and no load
// generator in the way, so an A/B on a busy 2-core machine is readable. Node's HTTP objects are not
// part of it: the socket-level figures come from bench.mjs / quick.mjs.
//
//   node bench/inproc.mjs [--proc ours-fixed] [--kind call|mrtr|session] [--n 40000] [--rounds 5] [--base bench/out/base/cjs]
//     [--new <another dist/cjs>]  (the "new" side; default this checkout's dist/cjs)
//
// --alloc with PROMOTED_ONLY=1 samples only what survives a young-generation GC (what gets promoted).
//
// Each round runs in a fresh child process pinned to CPU 0; with --base, rounds alternate between
// the current dist/cjs ("new") and the saved copy ("base"), and the per-round ratios are printed.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PerformanceObserver } from 'node:perf_hooks';
import { PROCESSES, FIXED, ECHO } from './lib/targets.mjs';
import { legacyBody, legacyHeaders, modernBody, modernHeaders, LEGACY } from './lib/wire.mjs';
import { median } from './lib/stats.mjs';
import { pinned } from './lib/procs.mjs';

const { values: a } = parseArgs({ options: {
  proc: { type: 'string', default: 'ours-fixed' }, kind: { type: 'string', default: 'call' },
  n: { type: 'string', default: '40000' }, rounds: { type: 'string', default: '5' },
  concurrency: { type: 'string', default: '32' }, base: { type: 'string' }, new: { type: 'string' }, child: { type: 'boolean', default: false },
  alloc: { type: 'boolean', default: false },
} });

if (a.alloc) {
  // One in-process run under the sampling allocation profiler (collected objects kept): bytes per request by function.
  const { Session } = await import('node:inspector/promises');
  const { summariseHeap } = await import('./lib/heap-profile.mjs');
  Object.assign(process.env, PROCESSES[a.proc].env);
  const session = new Session();
  session.connect();
  const m = await measure(async (run) => {
    await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: process.env.PROMOTED_ONLY !== '1' });
    await run();
    return (await session.post('HeapProfiler.stopSampling')).profile;
  });
  const h = summariseHeap(m.profile, 50);
  console.log(`${a.proc} ${a.kind}: ≈ ${(h.totalBytes / m.reqs).toFixed(0)} bytes allocated per request (sampled)`);
  console.table(h.byFile.map((r) => ({ ...r, bytesPerReq: ((r.pct / 100) * h.totalBytes / m.reqs).toFixed(0) })));
  console.table(h.byFunction.map((r) => ({ ...r, bytesPerReq: ((r.pct / 100) * h.totalBytes / m.reqs).toFixed(0) })));
  process.exit(0);
}

if (a.child) {
  console.log(JSON.stringify(await measure()));
  process.exit(0);
}

const here = fileURLToPath(import.meta.url);
const sides = [{ name: 'new', dist: a.new ? resolve(a.new) : fileURLToPath(new URL('../dist/cjs', import.meta.url)) }];
if (a.base) sides.push({ name: 'base', dist: resolve(a.base) });
for (const s of sides) s.rows = [];
for (let r = 0; r < Number(a.rounds); r++) {
  for (const s of r % 2 ? [...sides].reverse() : sides) {
    const [cmd, args] = pinned(0, [process.execPath, '--expose-gc', here, '--child', '--proc', a.proc, '--kind', a.kind, '--n', a.n, '--concurrency', a.concurrency]);
    const out = spawnSync(cmd, args, { env: { ...process.env, ...PROCESSES[a.proc].env, OMC_DIST: s.dist }, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${s.name}: ${out.stderr}`);
    const row = JSON.parse(out.stdout.trim().split('\n').pop());
    s.rows.push(row);
    console.log(`${s.name}: ${row.cpuUs.toFixed(2)} µs CPU/req, ${row.gcPer1k.toFixed(2)} GCs and ${row.gcUs.toFixed(2)} µs GC per req, ${row.heapKBPerReq.toFixed(2)} KB retained/req`);
  }
}
for (const s of sides) console.log(`${s.name}: median ${median(s.rows.map((r) => r.cpuUs)).toFixed(2)} µs CPU/req, GC ${median(s.rows.map((r) => r.gcUs)).toFixed(2)} µs/req`);
if (sides.length === 2) {
  const ratios = sides[0].rows.map((r, i) => r.cpuUs / sides[1].rows[i].cpuUs);
  console.log(`new ÷ base CPU/req: median ${median(ratios).toFixed(3)} (${ratios.map((x) => x.toFixed(3)).join(' ')})`);
}

async function measure(wrap) {
  const require = createRequire(import.meta.url);
  process.env.TOOLS ??= 'echo';
  const { app, omc } = require('./servers/ours.cjs');
  const handler = omc.createNodeHandler(app, { path: '/mcp' });
  const endpoint = handler.endpoint;
  const call = a.proc === 'ours-fixed' ? FIXED : ECHO;
  const headersOf = (name) => ({ ...modernHeaders('tools/call', name), host: '127.0.0.1:4211' });
  const request = (headers, text) => new Promise((done, fail) => {
    let status = 0;
    const sink = {
      gone: false,
      onGone() {},
      send(st, _h, body) { status = st; done({ status, body }); },
      openStream() { fail(new Error('unexpected stream')); return { write() {}, end() {} }; },
    };
    endpoint.handle({ method: 'POST', headers, body: { kind: 'raw', read: async () => ({ ok: true, text }) } }, sink);
  });
  // session: 2025-11-25 calls on one initialized session (ids must differ while in flight).
  let sessionHeaders, nextId = 1;
  if (a.kind === 'session') {
    const init = await new Promise((done) => endpoint.handle({ method: 'POST', headers: { ...legacyHeaders(), host: '127.0.0.1:4211' }, body: { kind: 'raw', read: async () => ({ ok: true, text: legacyBody('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } }, 0) }) } }, {
      gone: false, onGone() {}, send(st, h) { done(h); }, openStream() { throw new Error('unexpected stream'); },
    }));
    const sid = Array.isArray(init) ? init[init.findIndex((x, i) => i % 2 === 0 && /^mcp-session-id$/i.test(x)) + 1] : Object.entries(init).find(([k]) => /^mcp-session-id$/i.test(k))?.[1];
    if (!sid) throw new Error(`initialize gave no session: ${JSON.stringify(init)}`);
    sessionHeaders = { ...legacyHeaders(sid), host: '127.0.0.1:4211' };
    const note = await request(sessionHeaders, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })).catch(() => ({ status: 202 }));
    if (note.status !== 202 && note.status !== 200) throw new Error(`initialized: ${note.status}`);
  }
  const one = a.kind === 'session'
    ? async () => {
      const r = await request(sessionHeaders, legacyBody('tools/call', call, nextId++));
      if (r.status !== 200) throw new Error(`bad reply ${r.status} ${r.body}`);
    }
    : a.kind === 'mrtr'
    ? async () => {
      const h = headersOf('confirm_echo');
      const args = { name: 'confirm_echo', arguments: { text: 'hello' } };
      const r1 = JSON.parse((await request(h, modernBody('tools/call', args))).body).result;
      const r2 = JSON.parse((await request(h, modernBody('tools/call', { ...args, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, requestState: r1.requestState }))).body).result;
      if (r2.content?.[0]?.text !== 'hello') throw new Error(`bad flow: ${JSON.stringify(r2)}`);
    }
    : async () => {
      const r = await request(headersOf(call.name), modernBody('tools/call', call));
      if (r.status !== 200) throw new Error(`bad reply ${r.status} ${r.body}`);
    };
  const perUnit = a.kind === 'mrtr' ? 2 : 1;
  const run = async (n) => {
    let left = n;
    const worker = async () => { while (left-- > 0) await one(); };
    await Promise.all(Array.from({ length: Number(a.concurrency) }, worker));
  };
  await run(5000); // warm-up: JIT and caches
  const n = Number(a.n);
  if (wrap) return { profile: await wrap(() => run(n)), reqs: n * perUnit };
  global.gc();
  let gcCount = 0, gcMs = 0;
  const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) { gcCount++; gcMs += e.duration; } });
  obs.observe({ entryTypes: ['gc'] });
  const heap0 = process.memoryUsage().heapUsed;
  const cpu0 = process.cpuUsage();
  await run(n);
  const cpu = process.cpuUsage(cpu0);
  await new Promise((r) => setTimeout(r, 100)); // gc entries arrive asynchronously
  obs.disconnect();
  global.gc();
  const heap1 = process.memoryUsage().heapUsed;
  const reqs = n * perUnit;
  return { cpuUs: (cpu.user + cpu.system) / reqs, gcPer1k: (1000 * gcCount) / reqs, gcUs: (1000 * gcMs) / reqs, heapKBPerReq: (heap1 - heap0) / 1024 / reqs };
}
