// GC per flow, HMAC against AES-GCM mode: each MRTR server runs with --trace-gc and takes `--runs` loads of
// `--seconds` in turn (A B, B A, …) in one process each; per run, flows, scavenges and mark-compacts per 10 000
// flows, and the GC pause time per flow (ms as V8 prints it). Counts, not the clock: readable on a busy machine.
//
//   node bench/gc-split.mjs [--runs 4] [--seconds 15]
import { parseArgs } from 'node:util';
import { PROCESSES, load } from './lib/targets.mjs';
import { pinSelf, startServer, stopServer, waitUntil } from './lib/procs.mjs';
import { listening } from './lib/wire.mjs';
import { runLoad } from './lib/load.mjs';
import { snapshotDist } from './lib/dist-snapshot.mjs';

const { values: a } = parseArgs({ options: { runs: { type: 'string', default: '4' }, seconds: { type: 'string', default: '15' } } });
pinSelf(1);
snapshotDist();
const modes = ['ours-mrtr-hmac', 'ours-mrtr-aes'];
const servers = {};
for (const name of modes) {
  const p = PROCESSES[name];
  const child = startServer(p.file, { ...p.env, PORT: String(p.port) }, { nodeArgs: ['--trace-gc'], stdout: 'pipe' });
  const gc = { scavenge: 0, markCompact: 0, ms: 0, other: 0 };
  let tail = '';
  child.stdout.on('data', (d) => {
    const lines = (tail + d).split('\n');
    tail = lines.pop();
    for (const line of lines) {
      const m = /: (Scavenge|Mark-Compact|Minor Mark-Sweep|Mark-Sweep)[^,]*, ([\d.]+) \/ ([\d.]+) ms/.exec(line)
        ?? /: (Scavenge|Mark-Compact|Mark-Sweep)\b.*?([\d.]+) \/ ([\d.]+) ms/.exec(line);
      if (!m) continue;
      if (m[1] === 'Scavenge') gc.scavenge++;
      else if (m[1].startsWith('Mark')) gc.markCompact++;
      else gc.other++;
      gc.ms += Number(m[2]);
    }
  });
  servers[name] = { child, gc, port: p.port };
}
try {
  for (const name of modes) await waitUntil(() => listening(servers[name].port), { what: name, child: servers[name].child });
  for (let run = 1; run <= Number(a.runs); run++) {
    const order = run % 2 ? modes : [...modes].reverse();
    for (const name of order) {
      const s = servers[name];
      const before = { ...s.gc };
      const m = await runLoad(load(name, name, 'mrtr'), { port: s.port, pid: s.child.pid, prepared: { body: '' }, connections: 32, seconds: Number(a.seconds) });
      await new Promise((r) => setTimeout(r, 200));
      const flows = m.flowsPerSec * m.wall;
      const per10k = (k) => ((s.gc[k] - before[k]) * 1e4 / flows).toFixed(1);
      console.log(`r${run} ${name}: ${flows.toFixed(0)} flows, ${(m.cpuUsPerReq * 2).toFixed(0)} µs CPU/flow, scavenges/10k ${per10k('scavenge')}, mark-compacts/10k ${per10k('markCompact')}, GC ms/flow ${((s.gc.ms - before.ms) * 1e3 / flows).toFixed(1)} µs, bad ${m.mismatches}`);
    }
  }
} finally {
  for (const s of Object.values(servers)) await stopServer(s.child);
}
