// Builds the package: CommonJS + declarations with tsc, then thin ESM entries that re-export the
// CommonJS build (one module instance, so decorator metadata and tsyringe tokens are shared).
// Entries: the main one, and one subpath per framework adapter (`onemodelcontext/express`, …) so
// the main entry's types import neither express nor fastify; and `onemodelcontext/redis` (the shared stores).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });

const ENTRIES = [
  { esm: 'index', cjs: 'index' },
  { esm: 'express', cjs: 'adapters/express' },
  { esm: 'fastify', cjs: 'adapters/fastify' },
  { esm: 'fetch', cjs: 'adapters/fetch' },
  { esm: 'redis', cjs: 'redis/index' },
];
mkdirSync('dist/esm', { recursive: true });
let count = 0;
for (const { esm, cjs } of ENTRIES) {
  const names = Object.keys(require(`../dist/cjs/${cjs}.js`)).filter((n) => n !== '__esModule' && n !== 'default');
  count += names.length;
  writeFileSync(`dist/esm/${esm}.mjs`, `import cjs from '../cjs/${cjs}.js';\nexport const { ${names.join(', ')} } = cjs;\nexport default cjs;\n`);
  writeFileSync(`dist/esm/${esm}.d.mts`, `export * from '../cjs/${cjs}.js';\n`);
}
console.log(`built dist/cjs and dist/esm (${ENTRIES.length} entries, ${count} exports)`);
