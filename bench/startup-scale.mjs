// Start-up at N = 1, 500 and 5 000 tools over stdio, ours and SDK v2 alternating (issue 38); prints the
// medians and ours ÷ SDK v2. The same measurement is the `startup-scale` scenario of bench.mjs.
//
//   npm run build && node bench/startup-scale.mjs [--rounds 5] [--sizes 1,500,5000] [--base <dist/cjs copy>]
//     --base adds ours from a saved build (an A/B of a change) to every round.
import { parseArgs } from 'node:util';
import { pinSelf } from './lib/procs.mjs';
import { resolve } from 'node:path';
import { writeFileSync, mkdirSync } from 'node:fs';
import { measureStartupScale, SCALE_SERVERS } from './lib/startup-scale.mjs';
import { startupScale } from './lib/report.mjs';

const { values: a } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, sizes: { type: 'string', default: '1,500,5000' }, base: { type: 'string' } } });
pinSelf(1);
const result = await measureStartupScale({
  rounds: Number(a.rounds), sizes: a.sizes.split(',').map(Number), log: (line) => console.error(line),
  servers: a.base ? [...SCALE_SERVERS, { ...SCALE_SERVERS[0], label: 'ours-base', env: { OMC_DIST: resolve(a.base) } }] : SCALE_SERVERS,
});
const { summary } = result;
mkdirSync('bench/out', { recursive: true });
writeFileSync('bench/out/startup-scale.md', startupScale(result));
console.error('wrote bench/out/startup-scale.md (the RESULTS.md section)');
console.table(summary.map((s) => ({
  N: s.n, who: s.label, 'spawn→initialize ms': s.medianMs.toFixed(s.label.includes('÷') ? 2 : 0),
  'server CPU ms': s.cpuMs.toFixed(s.label.includes('÷') ? 2 : 0), 'CPU ms after tools/list': s.listedCpuMs.toFixed(s.label.includes('÷') ? 2 : 0), 'peak RSS MB': s.peakMB.toFixed(s.label.includes('÷') ? 2 : 0),
  'per round ms': s.perRound?.join(' ') ?? '',
})));
