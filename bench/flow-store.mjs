// The in-memory flow store under a flood of two-round flows, far past maxTrackedFlows: it must
// never answer `full`, and its speed must not fall as the records pile up (issue 31, N5).
//   npm run build && node bench/flow-store.mjs [--n 300000]
// Prints flows/s for a store of 1 000 records and for the default 100 000, and their ratio.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const { MemoryFlowStore } = require('../dist/cjs/state/memory-flow-store.js');
const { values: a } = parseArgs({ options: { n: { type: 'string', default: '300000' } } });

async function flood(maxFlows, n) {
  const clock = { t: 1_000 };
  const s = new MemoryFlowStore({ maxFlows }, () => clock.t);
  let refused = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    if (i % 100 === 0) clock.t += 1;
    const id = `f${i}`;
    if ((await s.claim(id, 'h1', clock.t + 600_000, 60_000, 'ada')).kind !== 'claimed') refused++;
    await s.release(id, 'h1');
    const second = await s.claim(id, 'h2', clock.t + 600_000, 60_000, 'ada', clock.t);
    if (second.kind === 'claimed') await s.complete(id, 'h2', 'ok', clock.t + 600_000);
    else refused++;
  }
  const perSecond = n / ((performance.now() - t0) / 1000);
  return { perSecond, refused, size: s.size, bytes: s.bytes };
}

const n = Number(a.n);
const small = await flood(1_000, n);
const full = await flood(100_000, n);
for (const [name, r] of [['1 000 records', small], ['100 000 records', full]]) {
  console.log(`${name}: ${Math.round(r.perSecond)} flows/s, refused ${r.refused}, held ${r.size} (${r.bytes} bytes)`);
}
console.log(`speed at 100 000 / at 1 000: ${(full.perSecond / small.perSecond).toFixed(2)}`);
if (small.refused || full.refused) process.exit(1);
