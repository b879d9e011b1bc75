// Builds the edge example (test/edge/app.ts, and no-key.ts: the same without a requestStateKey) against
// the built package (run `npm run build` first):
// tsc compiles it as an ES module (esbuild cannot emit the decorator metadata class-validator and
// tsyringe read), then esbuild bundles it for workerd the way wrangler does: the `workerd`, `worker`
// and `browser` export conditions, `node:*` left to the runtime (nodejs_compat).
// Also prints the node:* built-ins that onemodelcontext/web's import graph uses.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'test/edge/tsconfig.json'], { stdio: 'inherit' });
const result = await build({
  entryPoints: { worker: 'build/edge/app.js', 'no-key-worker': 'build/edge/no-key.js' },
  bundle: true,
  outdir: 'build/edge',
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  external: ['node:*', 'cloudflare:*'],
  metafile: true,
  logLevel: 'warning',
});
const builtins = new Set();
for (const input of Object.values(result.metafile.inputs))
  for (const i of input.imports) if (i.path.startsWith('node:')) builtins.add(i.path);
console.log(`built build/edge/worker.js and no-key-worker.js; node built-ins: ${[...builtins].sort().join(', ')}`);
