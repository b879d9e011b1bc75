// Start-up at N = 1, 500 and 5 000 tools over stdio, ours and SDK v2 alternating (issue 38); prints the
// medians and ours ÷ SDK v2. The same measurement is the `startup-scale` scenario of bench.mjs.
//
//   npm run build && node bench/startup-scale.mjs [--rounds 5] [--sizes 1,500,5000]
import { parseArgs } from 'node:util';
import { pinSelf } from './lib/procs.mjs';
import { measureStartupScale } from './lib/startup-scale.mjs';

const { values: a } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, sizes: { type: 'string', default: '1,500,5000' } } });
pinSelf(1);
const { summary } = await measureStartupScale({
  rounds: Number(a.rounds), sizes: a.sizes.split(',').map(Number), log: (line) => console.error(line),
});
console.table(summary.map((s) => ({
  N: s.n, who: s.label, 'spawn→initialize ms': s.medianMs.toFixed(s.label.includes('÷') ? 2 : 0),
  'server CPU ms': s.cpuMs.toFixed(s.label.includes('÷') ? 2 : 0), 'peak RSS MB': s.peakMB.toFixed(s.label.includes('÷') ? 2 : 0),
  'per round ms': s.perRound?.join(' ') ?? '',
})));
