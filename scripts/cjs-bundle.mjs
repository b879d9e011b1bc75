// The CommonJS build as one file (issue 38): tsc's ~330 modules cost a cold start more in Node's loader
// (resolve, stat, realpath, read, compile — per file) than in running them. esbuild bundles every module
// of dist/cjs except the CLI into dist/cjs/bundle.js, each module still in its own function that runs on
// its first require (so the root index's lazy layers stay lazy), and every bundled file becomes a
// one-line stub that returns its module from the bundle. One copy of each class whichever file is
// required — the root, a subpath (`onemodelcontext/express`, `/redis`, `/web`), the CLI (left unbundled:
// it is not on an app's start-up path, and it reaches the library through the stubs) or a test's deep
// import. Packages stay external: the app shares class-validator, tsyringe and the others with us.
import { build } from 'esbuild';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const BUNDLE = 'bundle.js';
/** The call in esbuild's lazy module wrapper (0.28) that runs a module; the bundle also records it. */
const RUN_MODULE = 'return mod || (0, cb[__getOwnPropNames(cb)[0]])(';
const RUN_AND_RECORD = 'return mod || (__evaluated.push(__getOwnPropNames(cb)[0]), cb[__getOwnPropNames(cb)[0]])(';

/**
 * Left out of the bundle, as plain files: what a server does not load at start-up (the root index
 * loads these layers on first use, and the subpaths are separate entries). Parsing them on every start
 * would cost more than it saves; they reach the bundled modules through the stubs.
 */
const COLD = /^(?:cli|client|testing|auth|bridge|guards|redis|adapters|transports\/http)\//;

export async function bundleCjs(root) {
  const all = [...walk(root)].map((f) => relative(root, f).split('\\').join('/'));
  const files = all.filter((f) => !COLD.test(f));
  const entry =
    'const modules = {\n' +
    files.map((f) => `  ${JSON.stringify(f)}: () => require(${JSON.stringify(`./${f}`)}),`).join('\n') +
    '\n};\nmodule.exports = (file) => modules[file]();\n' +
    '/** The bundled modules that have run so far (the lazy-entry test reads it). */\n' +
    'module.exports.evaluated = () => __evaluated.slice();\n';
  const result = await build({
    stdin: { contents: entry, resolveDir: root, sourcefile: 'bundle-entry.js', loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    outfile: join(root, BUNDLE),
    plugins: [leaveOut(root)],
  });
  const text = result.outputFiles[0].text;
  if (text.split(RUN_MODULE).length !== 2) throw new Error(`esbuild's __commonJS wrapper changed shape: update ${import.meta.url}`);
  writeFileSync(join(root, BUNDLE), 'var __evaluated = [];\n' + text.replace(RUN_MODULE, RUN_AND_RECORD));
  for (const f of files) {
    const up = '../'.repeat(f.split('/').length - 1) || './';
    writeFileSync(join(root, f), `"use strict";\nmodule.exports = require("${up}${BUNDLE}")(${JSON.stringify(f)});\n`);
  }
  return files.length;
}

/** A relative require of a cold file stays a require, rewritten relative to the bundle (in `root`). */
function leaveOut(root) {
  return {
    name: 'leave-cold-files-out',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind === 'entry-point' || !args.resolveDir) return undefined;
        const target = relative(root, resolve(args.resolveDir, args.path)).split('\\').join('/');
        return COLD.test(`${target}/`) ? { path: `./${target}`, external: true } : undefined;
      });
    },
  };
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (name.endsWith('.js')) yield path;
  }
}
