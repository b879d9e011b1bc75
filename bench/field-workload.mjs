// The field's own benchmark (mcp-use's benchmark.md) run here against us, the official SDK v2, mcp-use,
// fastmcp and xmcp (bench/lib/peers.mjs; issue 34): the workload (lib/field.mjs), cold launch, and the
// installed size of a minimal server app. `npm run bench` runs the same as its `field`, `launch` and
// `size` sections. The load generator is this process, pinned to CPU 1 (its CPU share is printed);
// servers on CPU 0. On a shared machine read the server CPU per operation and the ratios of one run.
//
//   npm run build && node bench/field-workload.mjs [--rounds 3] [--ramp 5] [--hold 10] [--users 50]
//     [--wire 2026-07-28,2025-11-25] [--peers ours,sdk-v2,mcp-use,fastmcp,xmcp] [--launches 100 --warm 10] [--size]
//   --launches N: cold launch, N timed starts per server (after --warm untimed ones), servers interleaved.
//   --size: installed size (npm pack of ours, offline installs of every app into temp folders).
//   --no-load: skip the workload (only --launches / --size).
//   --base <dist/cjs copy>: with --launches, also ours from that build (an A/B of a change), label ours-base.
import { parseArgs } from 'node:util';
import { pinSelf } from './lib/procs.mjs';
import { LEGACY, MODERN } from './lib/wire.mjs';
import { coldLaunch, freePort, runField } from './lib/field.mjs';
import { resolve } from 'node:path';
import { preparePeers } from './lib/peers.mjs';
import { installedSize } from './lib/installed-size.mjs';
import { fieldTables } from './lib/field-report.mjs';

const { values: a } = parseArgs({ options: {
  rounds: { type: 'string', default: '3' }, ramp: { type: 'string', default: '5' }, hold: { type: 'string', default: '10' },
  users: { type: 'string', default: '50' }, wire: { type: 'string', default: `${MODERN},${LEGACY}` }, peers: { type: 'string' },
  base: { type: 'string' }, launches: { type: 'string', default: '0' }, warm: { type: 'string', default: '10' }, size: { type: 'boolean', default: false },
  'no-load': { type: 'boolean', default: false },
} });
pinSelf(1);
const log = (l) => console.error(l);
const peers = await preparePeers(a.peers, freePort);
const oursPeer = peers.find((p) => p.label === 'ours');
if (a.base && oursPeer) peers.splice(1, 0, { ...oursPeer, label: 'ours-base', env: { ...oursPeer.env, OMC_DIST: resolve(a.base) } });
const results = {};
if (!a['no-load']) {
  results.field = await runField(peers, { wires: a.wire.split(',').filter(Boolean), rounds: Number(a.rounds),
    users: Number(a.users), rampS: Number(a.ramp), holdS: Number(a.hold), log });
}
if (Number(a.launches) > 0) results.launch = await coldLaunch(peers, { warm: Number(a.warm), launches: Number(a.launches), log });
if (a.size) results.size = installedSize({ log });
for (const t of fieldTables(results)) {
  console.log(`\n${t.title}`);
  console.table(t.rows);
  for (const line of t.notes ?? []) console.log(line);
}
