// Builds the package: CommonJS + declarations with tsc, then thin ESM entries that re-export the
// CommonJS build (one module instance, so decorator metadata and tsyringe tokens are shared).
// Entries: the main one, and one subpath per framework adapter (`onemodelcontext/express`, …) so
// the main entry's types import neither express nor fastify; and `onemodelcontext/redis` (the shared stores).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
lazyColdLayers('dist/cjs/index.js');

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
/**
 * The root index also re-exports the client, the test kit, the OAuth resource layer, the built-in guards,
 * both transports and the fetch adapter; a server needs one transport and none of the rest. In the CommonJS index their `require`s become
 * lazy: tsc already reads every re-export through a getter (`get: () => mod_1.Name`), so `mod_1` is a
 * proxy that requires the module on the first read of one of its names. (The ESM entry binds every
 * name when it loads, so it still loads them all.) The count is checked so a change in tsc's output
 * fails the build instead of silently loading everything again.
 */
function lazyColdLayers(file) {
  const cold = /^var (\w+) = require\("(\.\/(?:client|testing|bridge|auth|guards|transports\/stdio|transports\/http|adapters\/fetch)(?:\/[^"]*)?)"\);$/;
  let count = 0;
  const lines = readFileSync(file, 'utf8').split('\n').map((line) => {
    const m = line.match(cold);
    if (!m) return line;
    count++;
    return `var ${m[1]} = lazyModule(() => require("${m[2]}"));`;
  });
  if (count < 20) throw new Error(`${file}: expected the client, testing and auth re-exports, found ${count}`);
  const first = lines.findIndex((l) => l.startsWith('var '));
  lines.splice(first, 0, 'function lazyModule(load) { let m; return new Proxy({}, { get: (_, k) => (m ??= load())[k] }); }');
  writeFileSync(file, lines.join('\n'));
}

console.log(`built dist/cjs and dist/esm (${ENTRIES.length} entries, ${count} exports)`);
