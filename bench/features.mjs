// `npm run bench:features` (after `npm run build`): the bridge, the ask fallbacks and the fleet's leases,
// each measured unused (its landing commit ÷ the commit before it, in-process, CPU per request: must be
// ≤ 1.05) and used (the field workload's echo with the feature in use beside the same echo without it).
// Issue 34. Builds of old commits are kept in bench/out/builds/.
//
//   node bench/features.mjs [--unused-only | --used-only] [--n 20000] [--rounds 9] [--base <commit or dist/cjs folder>]
//     [--used-rounds 3] [--users 50] [--ramp 2] [--hold 5] [--used <text>]
//   --used: only the "used" loads whose label contains <text> (e.g. bridge), beside the plain echo of their wire.
//   --base: instead of each feature's own range, this checkout's dist/cjs against that build.
import { parseArgs } from 'node:util';
import { pinSelf } from './lib/procs.mjs';
import { measureUnused, measureUsed } from './lib/features.mjs';
import { fieldTables } from './lib/field-report.mjs';

const { values: a } = parseArgs({ options: {
  'unused-only': { type: 'boolean', default: false }, 'used-only': { type: 'boolean', default: false },
  n: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '9' }, base: { type: 'string' },
  'used-rounds': { type: 'string', default: '3' }, users: { type: 'string', default: '50' }, ramp: { type: 'string', default: '2' }, hold: { type: 'string', default: '5' },
  used: { type: 'string' },
} });
pinSelf(1);
const log = (l) => console.error(l);
const features = {
  unused: a['used-only'] ? [] : measureUnused({ n: Number(a.n), rounds: Number(a.rounds), base: a.base, log }),
  used: a['unused-only'] ? [] : await measureUsed({ rounds: Number(a['used-rounds']), users: Number(a.users), rampS: Number(a.ramp), holdS: Number(a.hold), only: a.used, log }),
};
for (const t of fieldTables({ features })) {
  console.log(`\n${t.title}`);
  console.table(t.rows);
}
