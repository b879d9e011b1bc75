// Where issue 38's start-up CPU goes, in-process, ours and SDK v2 alternating: importing the framework,
// the app's own schemas (class-validator decorators on N DTOs / N zod objects) and registering the tools
// (McpApplication.create / N registerTool calls). Medians of --rounds runs, CPU ms. Ours' import column
// starts after the fixture's own require('class-validator'); SDK v2's includes zod.
//
//   npm run build && node bench/startup-split.mjs [--n 5000] [--rounds 3]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './lib/stats.mjs';

const { values: a } = parseArgs({ options: { n: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '3' } } });
const sides = [['ours', 'startup-split-ours.cjs'], ['sdk-v2', 'startup-split-sdk-v2.mjs']];
const runs = { ours: [], 'sdk-v2': [] };
for (let round = 0; round < Number(a.rounds); round++) {
  for (const [label, file] of round % 2 ? [...sides].reverse() : sides) {
    const out = execFileSync(process.execPath, [fileURLToPath(new URL(`./servers/${file}`, import.meta.url))], { env: { ...process.env, NTOOLS: a.n } });
    runs[label].push(JSON.parse(out.toString()));
  }
}
console.table(Object.entries(runs).map(([who, r]) => ({
  who, N: Number(a.n), 'import ms': median(r.map((x) => x.import)).toFixed(0),
  "app's schemas ms": median(r.map((x) => x.schemas)).toFixed(0), 'register ms': median(r.map((x) => x.register)).toFixed(0),
})));
