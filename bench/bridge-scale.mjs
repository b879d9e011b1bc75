// Start-up and tools/list of a bridge mounting an upstream with N tools (issue 38: mounted tools scale
// linearly). Prints medians per size and the bridge's CPU per mounted tool (flat = linear).
//
//   npm run build && node bench/bridge-scale.mjs [--rounds 3] [--sizes 1,500,5000]
import { parseArgs } from 'node:util';
import { pinSelf } from './lib/procs.mjs';
import { measureBridgeScale } from './lib/bridge-scale.mjs';

const { values: a } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, sizes: { type: 'string', default: '1,500,5000' } } });
pinSelf(1);
const { summary } = await measureBridgeScale({ rounds: Number(a.rounds), sizes: a.sizes.split(',').map(Number), log: (l) => console.error(l) });
console.table(summary.map((s) => ({
  N: s.n, 'spawn→initialize ms': s.medianMs.toFixed(0), 'bridge CPU ms': s.cpuMs.toFixed(0),
  'CPU µs per mounted tool': s.cpuPerToolUs?.toFixed(0) ?? '', 'tools/list (all pages) ms': s.listMs.toFixed(0),
  'list CPU ms': s.listCpuMs.toFixed(0), 'list CPU µs per tool': s.listCpuPerToolUs?.toFixed(1) ?? '', 'peak RSS MB': s.peakMB.toFixed(0),
})));
