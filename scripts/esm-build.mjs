// The ESM build: the same sources compiled by tsc as ES modules into dist/esm (not a wrapper of the
// CommonJS build, so a bundler or an edge runtime follows real `import`s and takes only what an entry
// uses). tsc leaves specifiers as written, and ESM needs them complete, so this pass rewrites them:
// `./x` → `./x.js` or `./x/index.js`, a deep import into a package without `exports` gets its `.js`.
// The few lazy `require()`s of optional or heavy packages (Ajv, @opentelemetry/api) become a require
// made with `process.getBuiltinModule('node:module')` on first use: no static `node:module` import, so
// the import graph of `onemodelcontext/web` stays free of it, and where there is no such require (an
// edge runtime) the call throws, which those call sites already treat as "not available".
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Bare deep imports that need their file extension under Node's ESM resolution. */
const DEEP_IMPORTS = { 'class-transformer/cjs/storage': 'class-transformer/cjs/storage.js' };

const LAZY_REQUIRE =
  'let nodeRequire;\n' +
  'const require = (id) => (nodeRequire ??= ' +
  "globalThis.process?.getBuiltinModule?.('node:module')?.createRequire(import.meta.url) ?? " +
  '((m) => { throw new Error(`onemodelcontext: cannot load ${m} (this runtime has no require)`); }))(id);\n';

export function buildEsm(tsc) {
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.esm.json'], { stdio: 'inherit' });
  let files = 0;
  for (const file of walk('dist/esm')) {
    const source = readFileSync(file, 'utf8');
    let out = source.replace(
      /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\2/g,
      (whole, lead, quote, spec) => `${lead}${quote}${complete(file, spec)}${quote}`,
    );
    if (/(?<![\w.])require\(/.test(out)) out = LAZY_REQUIRE + out;
    if (out !== source) writeFileSync(file, out);
    files++;
  }
  writeFileSync('dist/esm/package.json', '{ "type": "module" }\n');
  return files;
}

function complete(file, spec) {
  if (DEEP_IMPORTS[spec]) return DEEP_IMPORTS[spec];
  if (!spec.startsWith('.')) return spec;
  const target = resolve(dirname(file), spec);
  if (existsSync(`${target}.js`)) return spec + '.js';
  if (existsSync(join(target, 'index.js'))) return `${spec}/index.js`;
  throw new Error(`${relative('.', file)}: cannot resolve ${spec}`);
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (name.endsWith('.js')) yield path;
  }
}
