// Copies dist/cjs (built by `npm run build`) to bench/out/dist/<pid>/cjs and points ours.cjs at it
// via OMC_DIST: `npm test` rebuilds dist from scratch, which must not break a long benchmark run,
// and two runs at once must not replace each other's copy. Removed when this process exits.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function snapshotDist() {
  const from = fileURLToPath(new URL('../../dist/cjs', import.meta.url));
  const to = fileURLToPath(new URL(`../out/dist/${process.pid}/cjs`, import.meta.url));
  if (!existsSync(`${from}/index.js`)) throw new Error('dist/cjs/index.js is missing: run `npm run build` first');
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  process.env.OMC_DIST = to;
  process.once('exit', () => rmSync(fileURLToPath(new URL(`../out/dist/${process.pid}`, import.meta.url)), { recursive: true, force: true }));
  return to;
}
