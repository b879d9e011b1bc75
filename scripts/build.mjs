// Builds the package: CommonJS + declarations with tsc into dist/cjs, and a true ESM build of the
// same sources into dist/esm (scripts/esm-build.mjs; its types are the CommonJS declarations). Both are
// then bundled (issue 38): dist/cjs/bundle.js with a stub per file (scripts/cjs-bundle.mjs), and one
// file per ESM entry with shared chunks (scripts/esm-bundle.mjs).
// Entries: the main one, one subpath per framework adapter (`onemodelcontext/express`, …) so the
// main entry's types import neither express nor fastify, `onemodelcontext/redis` (the shared stores)
// and `onemodelcontext/web` (web-standard runtimes: no node:http, fs, path or child_process).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { bundleCjs } from './cjs-bundle.mjs';
import { buildEsm } from './esm-build.mjs';
import { bundleEsm } from './esm-bundle.mjs';

const require = createRequire(import.meta.url);
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
lazyColdLayers('dist/cjs/index.js');
const bundled = await bundleCjs('dist/cjs');

const ENTRIES = [
  { name: 'index', file: 'index' },
  { name: 'express', file: 'adapters/express' },
  { name: 'fastify', file: 'adapters/fastify' },
  { name: 'fetch', file: 'adapters/fetch' },
  { name: 'redis', file: 'redis/index' },
  { name: 'web', file: 'web' },
];
const esmFiles = buildEsm(require.resolve('typescript/bin/tsc'));
await bundleEsm('dist/esm', ENTRIES.map((e) => e.file));
mkdirSync('dist/esm', { recursive: true });
for (const { name, file } of ENTRIES) writeFileSync(`dist/esm/${name}.d.mts`, `export * from '../cjs/${file}.js';\n`);
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

console.log(`built dist/cjs (${bundled} modules in dist/cjs/bundle.js, bundle-http.js, bundle-request.js and bundle-cold.js) and dist/esm (${ENTRIES.length} entries bundled from ${esmFiles} ES modules, shared chunks in dist/esm/chunks)`);
