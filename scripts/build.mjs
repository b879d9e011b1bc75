// Builds the package: CommonJS + declarations with tsc, then a thin ESM entry that re-exports the
// CommonJS build (one module instance, so decorator metadata and tsyringe tokens are shared).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });

const names = Object.keys(require('../dist/cjs/index.js')).filter((n) => n !== '__esModule' && n !== 'default');
mkdirSync('dist/esm', { recursive: true });
writeFileSync(
  'dist/esm/index.mjs',
  `import cjs from '../cjs/index.js';\nexport const { ${names.join(', ')} } = cjs;\nexport default cjs;\n`,
);
writeFileSync('dist/esm/index.d.mts', `export * from '../cjs/index.js';\n`);
console.log(`built dist/cjs and dist/esm (${names.length} exports)`);
