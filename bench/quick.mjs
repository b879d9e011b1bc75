// Quick A/B while optimising: one server (default ours-echo), one load, a few short runs; prints
// req/s and server CPU µs per request. Not part of the report.
//   node bench/quick.mjs [--proc ours-echo] [--kind call|mrtr] [--runs 3] [--seconds 4]
import { parseArgs } from 'node:util';
import { PROCESSES, load } from './lib/targets.mjs';
import { pinSelf, startServer, stopServer, waitUntil } from './lib/procs.mjs';
import { listening } from './lib/wire.mjs';
import { prepare } from './lib/prepare.mjs';
import { runLoad } from './lib/load.mjs';
import { snapshotDist } from './lib/dist-snapshot.mjs';

const { values: a } = parseArgs({ options: { proc: { type: 'string', default: 'ours-echo' }, kind: { type: 'string', default: 'call' }, runs: { type: 'string', default: '3' }, seconds: { type: 'string', default: '4' } } });
pinSelf(1);
snapshotDist();
const p = PROCESSES[a.proc];
const spec = load(a.proc, a.proc, a.kind);
const child = startServer(p.file, { ...p.env, PORT: String(p.port) });
try {
  await waitUntil(() => listening(p.port), { what: a.proc, child });
  const prepared = await prepare(spec, p.port);
  await runLoad(spec, { port: p.port, pid: child.pid, prepared, connections: 32, seconds: 2, record: false });
  for (let i = 0; i < Number(a.runs); i++) {
    const m = await runLoad(spec, { port: p.port, pid: child.pid, prepared, connections: 32, seconds: Number(a.seconds) });
    console.log(`${a.proc} ${a.kind}: ${m.rps.toFixed(0)} req/s, ${m.cpuUsPerReq.toFixed(1)} µs CPU/req, bad ${m.mismatches + m.non2xx + m.errors}`);
  }
} finally {
  await stopServer(child);
}
