// GC per flow of MRTR servers (default: ours in HMAC and AES-GCM mode): each runs with --trace-gc-nvp and takes
// `--runs` loads of `--seconds` in turn (A B, B A, …) in one process each. Per run: flows, CPU µs per flow, KB
// allocated and KB promoted per flow (the young-generation GC's "promoted": what outlived two scavenges), scavenges
// and mark-compacts per 10 000 flows, and the scavenges' µs per flow on the main thread and on V8's helper threads
// (both count as server CPU). Bytes and counts, not the clock: readable on a busy machine. With --base, the same
// servers from another build run beside them (base HMAC, base AES-GCM).
//
//   node bench/gc-split.mjs [--runs 4] [--seconds 15] [--procs ours-mrtr-hmac,ours-mrtr-aes] [--base <dist/cjs of a build>]
//
// What it found (issue 34): a long-lived Map that churns keeps, once its table is in the old generation, every
// later table there, and each replaced table holds its entries until the next full GC, so the young GC promoted
// them (minted-tokens.ts, RENEW_EVERY). "KB promoted per flow" is the figure to watch for that.
import { parseArgs } from 'node:util';
import { PROCESSES, addBaseProcess, load } from './lib/targets.mjs';
import { pinSelf, startServer, stopServer, waitUntil } from './lib/procs.mjs';
import { listening } from './lib/wire.mjs';
import { runLoad } from './lib/load.mjs';
import { snapshotDist } from './lib/dist-snapshot.mjs';

const { values: a } = parseArgs({ options: {
  runs: { type: 'string', default: '4' }, seconds: { type: 'string', default: '15' },
  procs: { type: 'string', default: 'ours-mrtr-hmac,ours-mrtr-aes' }, base: { type: 'string' },
} });
pinSelf(1);
snapshotDist();
const names = a.procs.split(',');
if (a.base) {
  for (const name of [...names]) {
    addBaseProcess(name, `base:${name}`, a.base);
    names.push(`base:${name}`);
  }
}

/** Sums of the --trace-gc-nvp fields this reads (a line per GC: `name=value` pairs). */
const empty = () => ({ scavenges: 0, markCompacts: 0, allocated: 0, promoted: 0, scavengeMs: 0, helperMs: 0 });
function account(gc, line) {
  const kind = /\bgc=(\w+)/.exec(line)?.[1];
  if (kind === undefined) return;
  const field = (name) => Number(new RegExp(`\\b${name.replace('.', '\\.')}=([\\d.]+)`).exec(line)?.[1] ?? 0);
  gc.allocated += field('allocated');
  gc.promoted += field('promoted');
  if (kind === 's') {
    gc.scavenges++;
    gc.scavengeMs += field('scavenge');
    gc.helperMs += field('background.scavenge.parallel');
  } else if (kind === 'mc' || kind === 'ms') {
    gc.markCompacts++;
  }
}

const servers = {};
for (const name of names) {
  const p = PROCESSES[name];
  const child = startServer(p.file, { ...p.env, PORT: String(p.port) }, { nodeArgs: ['--trace-gc-nvp'], stdout: 'pipe' });
  const gc = empty();
  let tail = '';
  child.stdout.on('data', (d) => {
    const lines = (tail + d).split('\n');
    tail = lines.pop();
    for (const line of lines) account(gc, line);
  });
  servers[name] = { child, gc, port: p.port };
}
try {
  for (const name of names) await waitUntil(() => listening(servers[name].port), { what: name, child: servers[name].child });
  for (let run = 1; run <= Number(a.runs); run++) {
    const order = run % 2 ? names : [...names].reverse();
    for (const name of order) {
      const s = servers[name];
      const before = { ...s.gc };
      const m = await runLoad(load(name, name, 'mrtr'), { port: s.port, pid: s.child.pid, prepared: { body: '' }, connections: 32, seconds: Number(a.seconds) });
      await new Promise((r) => setTimeout(r, 200));
      const flows = m.flowsPerSec * m.wall;
      const d = (k) => s.gc[k] - before[k];
      console.log(`r${run} ${name}: ${flows.toFixed(0)} flows, ${(m.cpuUsPerReq * 2).toFixed(0)} µs CPU/flow, `
        + `KB/flow allocated ${(d('allocated') / 1024 / flows).toFixed(1)}, promoted ${(d('promoted') / 1024 / flows).toFixed(2)}; `
        + `per 10k flows ${(d('scavenges') * 1e4 / flows).toFixed(1)} scavenges, ${(d('markCompacts') * 1e4 / flows).toFixed(1)} mark-compacts; `
        + `scavenge µs/flow ${(d('scavengeMs') * 1e3 / flows).toFixed(1)} main + ${(d('helperMs') * 1e3 / flows).toFixed(1)} helpers, bad ${m.mismatches}`);
    }
  }
} finally {
  for (const s of Object.values(servers)) await stopServer(s.child);
}
