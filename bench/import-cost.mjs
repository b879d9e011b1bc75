// What importing the package costs an app that already loaded reflect-metadata and class-validator
// (issue 38): CPU ms of `require` (CommonJS) and `import` (ESM) of the root and of onemodelcontext/web,
// each in a fresh process, rounds alternating; with --base, the same from another build's dist/ (an A/B).
//
//   npm run build && node bench/import-cost.mjs [--rounds 7] [--base <a dist/ folder inside the repository>]
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './lib/stats.mjs';

const { values: a } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, base: { type: 'string' } } });
const dists = { ours: fileURLToPath(new URL('../dist', import.meta.url)), ...(a.base ? { base: resolve(a.base) } : {}) };
const cases = [
  ['require root', (d) => `${d}/cjs/index.js`, 'cjs'],
  ['import root', (d) => `${d}/esm/index.js`, 'esm'],
  ['import web', (d) => `${d}/esm/web.js`, 'esm'],
];
const measure = (file, kind) => {
  const load = kind === 'cjs' ? `require(${JSON.stringify(file)})` : `await import(${JSON.stringify(file)})`;
  const script = `import 'reflect-metadata'; import 'class-validator'; import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url); const t = process.cpuUsage(); const m = ${load};
    if (typeof m.McpApplication !== 'function') throw new Error('no McpApplication');
    const u = process.cpuUsage(t); console.log((u.user + u.system) / 1000);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('..', import.meta.url)) }).toString());
};
const rows = [];
for (let round = 0; round < Number(a.rounds); round++) {
  const labels = Object.keys(dists);
  for (const [what, path, kind] of cases) {
    for (const who of round % 2 ? [...labels].reverse() : labels) rows.push({ who, what, ms: measure(path(dists[who]), kind) });
  }
}
console.table(cases.flatMap(([what]) => Object.keys(dists).map((who) => ({
  what, who, 'CPU ms (median)': median(rows.filter((r) => r.who === who && r.what === what).map((r) => r.ms)).toFixed(1),
}))));
