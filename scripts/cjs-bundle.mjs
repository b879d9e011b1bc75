// The CommonJS build as one file (issue 38): tsc's ~330 modules cost a cold start more in Node's loader
// (resolve, stat, realpath, read, compile — per file) than in running them. esbuild bundles every module
// of dist/cjs except the CLI into dist/cjs/bundle.js, each module still in its own function that runs on
// its first require (so the root index's lazy layers stay lazy), and every bundled file becomes a
// one-line stub that returns its module from the bundle. One copy of each class whichever file is
// required — the root, a subpath (`onemodelcontext/express`, `/redis`, `/web`), the CLI (left unbundled:
// it is not on an app's start-up path, and it reaches the library through the stubs) or a test's deep
// import. Packages stay external: the app shares class-validator, tsyringe and the others with us.
// The HTTP transport is a second bundle (bundle-http.js), required on the first read of serveHttp: a
// stdio server never parses it, and an HTTP server loads one file instead of ~50 (issue 34's cold launch).
// What a server runs only on first use (LAZY_MODULES) is a third bundle (bundle-cold.js): a start-up
// does not pre-parse it. What it runs from its first request past `initialize` on (REQUEST_MODULES) is
// a fourth (bundle-request.js).
// Each bundle's code is written to <bundle>.code.js and <bundle>.js is a stub that runs it through
// code-cache.js (scripts/code-cache.cjs): a start-up reuses the bytecode V8 cached on an earlier one.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

const BUNDLE = 'bundle.js';
/** The call in esbuild's lazy module wrapper (0.28) that runs a module; the bundle also records it. */
const RUN_MODULE = 'return mod || (0, cb[__getOwnPropNames(cb)[0]])(';
const RUN_AND_RECORD = 'return mod || (__evaluated.push(__getOwnPropNames(cb)[0]), cb[__getOwnPropNames(cb)[0]])(';

/**
 * Left out of the bundles, as plain files: what a server does not load at start-up (the root index
 * loads these layers on first use, and the subpaths are separate entries). Parsing them on every start
 * would cost more than it saves; they reach the bundled modules through the stubs.
 */
const COLD = /^(?:cli|client|testing|auth|bridge|guards|redis|adapters)\//;
/** Bundles of their own, loaded on their first require; every other bundled file goes into BUNDLE. */
const CHUNKS = [
  { bundle: 'bundle-http.js', files: /^transports\/http\// },
  { bundle: 'bundle-request.js', files: { test: (f) => REQUEST_MODULES.includes(f) } },
  /**
   * LAZY_MODULES (below) and the modules only they import, and the web entry: a server runs none of them
   * at start-up, so bundle.js need not carry them (V8 pre-parses a whole file it loads).
   */
  {
    bundle: 'bundle-cold.js',
    files:
      /^(?:web\.js$|skills\/|approval\/page-|registry\/uri-template(?:\.js$|\/)|schema\/(?:dto-validator|fast-path|flat-schema-check|hostile-input|required-nested|json-schema-validator|interpreted-validator|json-schema-paths|validation-messages|elicitation-form)\.js$)/,
  },
];
/**
 * Packages our bundles' `require` gets on demand, in place of loading them with the module that
 * names them (issue 38: a stdio server's start-up). Each becomes an object of getters, one per name
 * the package exports (read here, at build time), that loads the package on the first read of any
 * of them; the app's own `require` of the package is the same copy.
 * - class-transformer: its index loads the whole transformer (~20 modules, ~40 M instructions); a
 *   server needs `@Type` and an enum until an input is refused or options nest (plainToInstance), so
 *   those two come from the files the app's own import loads (one metadata storage).
 * - node:crypto (~50 M instructions): required by ~30 modules for hashes, HMACs and random ids, none
 *   of which run before a stdio server's first answer.
 * - @cfworker/json-schema (~15 M): used only when code generation is refused.
 * - tsyringe (~50 M with its decorators, factories and tslib): bootstrap needs only its container,
 *   which comes from tsyringe's own dependency-container file (the same instance its index exports).
 */
const LAZY_PACKAGES = {
  'class-transformer': {
    Type: 'require("class-transformer/cjs/decorators/type.decorator").Type',
    TransformationType: 'require("class-transformer/cjs/enums").TransformationType',
  },
  'node:crypto': {},
  '@cfworker/json-schema': {},
  // Through the index if a later tsyringe closes its files to deep requires (an `exports` map).
  tsyringe: {
    container:
      '(() => { try { return require("tsyringe/dist/cjs/dependency-container").instance; } catch { return require("tsyringe").container; } })()',
  },
};

/**
 * The modules a server runs only once it is asked something past `initialize` (issue 38: they were
 * 40 % of bundle.js, which V8 pre-parses whole on every start): answering calls (methods, replay,
 * replies, the pipeline, the context's asks), sealing and opening requestState, legacy sessions'
 * subscriptions, tasks, fleets' listen streams and request telemetry. Lazy as LAZY_MODULES are, in
 * bundle-request.js. Left out: whatever an app reads while it loads (public decorators and classes
 * such as Context, whose `design:paramtypes` name it), and what the plain-file layers (guards, bridge,
 * redis, client) or an HTTP start-up (the key's fingerprint) require. `test/e2e/package/lazy-entry.test.ts`
 * checks that neither a stdio answer to `initialize`, an HTTP start nor reading every public name loads it.
 */
const REQUEST_MODULES = Object.entries({
  'config/': ['did-you-mean'],
  'context/': ['ask-builders', 'effect-watch', 'fallback-port', 'flow-state', 'input-required', 'legacy-ask-shapes',
    'legacy-port', 'question-texts', 'replay-port', 'sealed-flow'],
  'errors/': ['framework-error-codes'],
  'metadata/': ['effects'],
  'protocol/': ['apps', 'modern-envelope'],
  'registry/': ['build-app-ui'],
  'schema/': ['dto-schema', 'field-value-check', 'frozen-json'],
  'server/fleet/': ['bus-relay', 'fleet-listen', 'listen-stream', 'listen-visibility', 'subscriptions'],
  'server/legacy/': ['legacy-changes', 'legacy-results', 'legacy-subscribe'],
  'server/methods/': ['ask-fallbacks', 'call-context', 'calls', 'completion', 'guarded', 'list-visibility', 'lists',
    'skills', 'tasks', 'tool-round', 'unservable-tools'],
  'server/pipeline/': ['execution', 'pipeline'],
  'server/replay/': ['ask-engine', 'dry-replay', 'engine-types', 'flow-hold', 'flow-open', 'legacy-flow', 'replay-lint',
    'round-attempt', 'round-end'],
  'server/replies/': ['handler-codes', 'pagination', 'reply-facts', 'result-envelope', 'results'],
  'server/request/': ['request-scope', 'request-telemetry-of', 'resource-uri', 'tool-header-params'],
  'server/tasks/': ['task-outcome', 'task-progress', 'task-record', 'task-runner', 'task-service'],
  'state/': ['base64url', 'binding', 'bookkeeping-failure', 'canonical-json', 'claim-checks', 'claims', 'envelope',
    'fleet-slot', 'hmac-sha256', 'memory-lease-counter', 'single-use-store', 'state-refusal'],
  'telemetry/': ['conventions', 'instruments', 'request-telemetry'],
}).flatMap(([dir, names]) => names.map((name) => `${dir}${name}.js`));

/**
 * Our own modules a bundled module's `require` gets on demand (issue 38: a stdio server's start-up runs
 * none of them before its first answer). Each importer gets an object of getters, one per name the
 * module exports (read here, at build time), that runs the module on the first read of any of them
 * (and are then replaced by the values); the file's stub, and so a deep import, gets the module itself
 * (the same classes). Only modules whose evaluation has no effect beyond their own exports belong here;
 * an importer that reads a name while it loads (`class A extends B`) simply runs the module then.
 * - the URI-template engine (8 modules): only resource templates and fixed resource URIs use it;
 * - reading and checking `@Skills` folders (6 modules): only a class with `@Skills` uses them;
 * - building input validators and compiling JSON Schemas (~10 modules): a tool's first call;
 * - the elicitation form builder: a form's first use;
 * - the approval pages' HTML route: the first page a browser opens;
 * - the decorated ApplicationOptions classes: options the hand check does not pass (or a read of the class);
 * - REQUEST_MODULES (above): the first request past `initialize`.
 */
const LAZY_MODULES = [
  // McpApplication.create checks the options most apps give by hand (app/application-options-check.js).
  'app/application-options.js',
  'registry/uri-template.js',
  'skills/read-skill-folder.js',
  'skills/skill-set.js',
  'schema/dto-validator.js',
  'schema/json-schema-validator.js',
  'schema/elicitation-form.js',
  'approval/page-route.js',
  ...REQUEST_MODULES,
];

/** The module our bundles get for `require(name)`: getters that load the package (or `direct`'s file) on first read. */
function lazyPackageSource(name, direct) {
  const names = Object.keys(buildTimeRequire(name)).filter((n) => n !== 'default' && !(n in direct));
  const own = Object.entries(direct).map(([n, expr]) => `  ${JSON.stringify(n)}: () => ${expr},`).join('\n');
  return `
let all;
const loaders = {
${own}
};
for (const name of ${JSON.stringify(names)}) loaders[name] = () => (all ??= require(${JSON.stringify(name)}))[name];
const lazy = {};
for (const [name, load] of Object.entries(loaders)) {
  let value, loaded = false;
  Object.defineProperty(lazy, name, { enumerable: true, get: () => (loaded ? value : ((loaded = true), (value = load()))) });
}
module.exports = lazy;
`;
}

/**
 * What a bundled module gets for `require` of one of LAZY_MODULES: getters that run it on first read,
 * and then become plain values (a call's hot path reads them: no getter call per read once loaded).
 */
function lazyModuleSource(root, file) {
  const names = Object.keys(buildTimeRequire(resolve(root, file))).filter((n) => n !== 'default');
  return `module.exports = require(${JSON.stringify(LAZY_HELPER)})(() => require(${JSON.stringify(`${EAGER}${file}`)}), ${JSON.stringify(names)});\n`;
}

/** The getters' code, once per bundle rather than once per lazy module (V8 pre-parses all of it). */
const LAZY_HELPER_SOURCE = `
module.exports = (run, names) => {
  let mod;
  const lazy = {};
  Object.defineProperty(lazy, '__esModule', { value: true });
  const load = () => {
    mod = run();
    for (const name of names) Object.defineProperty(lazy, name, { value: mod[name], enumerable: true });
    return mod;
  };
  for (const name of names) {
    Object.defineProperty(lazy, name, { enumerable: true, configurable: true, get: () => (mod ?? load())[name] });
  }
  return lazy;
};
`;

/** Requires a package as an app would (tsyringe refuses to load without the Reflect metadata API). */
function buildTimeRequire(name) {
  require('reflect-metadata');
  return require(name);
}
/** How the lazy getters of one of LAZY_MODULES require the module itself. */
const EAGER = 'omc-eager:';
/** The module that makes those getters. */
const LAZY_HELPER = 'omc-lazy-helper';
/** How a require of a file in another bundle is marked in esbuild's output, then rewritten. */
const OTHER_BUNDLE = 'omc-bundle:';

export async function bundleCjs(root) {
  const all = [...walk(root)].map((f) => relative(root, f).split('\\').join('/'));
  const missing = LAZY_MODULES.filter((f) => !all.includes(f));
  if (missing.length > 0) throw new Error(`LAZY_MODULES or REQUEST_MODULES name files the build has not: ${missing.join(', ')}`);
  const bundleOf = (f) => (COLD.test(f) ? undefined : CHUNKS.find((c) => c.files.test(f))?.bundle ?? BUNDLE);
  const bundles = [BUNDLE, ...CHUNKS.map((c) => c.bundle)];
  let count = 0;
  for (const bundle of bundles) {
    const files = all.filter((f) => bundleOf(f) === bundle);
    const entry =
      'const modules = {\n' +
      files.map((f) => `  ${JSON.stringify(f)}: () => require(${JSON.stringify(`./${f}`)}),`).join('\n') +
      '\n};\nmodule.exports = (file) => modules[file]();\n' +
      '/** The modules of this bundle that have run so far (the lazy-entry test reads it). */\n' +
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
      outfile: join(root, bundle),
      plugins: [lazyModules(root, bundle, bundleOf), leaveOut(root, (f) => bundleOf(f) !== bundle, bundleOf), lazyPackages()],
    });
    const text = result.outputFiles[0].text;
    if (text.split(RUN_MODULE).length !== 2) throw new Error(`esbuild's __commonJS wrapper changed shape: update ${import.meta.url}`);
    const linked = text.replace(RUN_MODULE, RUN_AND_RECORD).replace(
      new RegExp(`require\\("${OTHER_BUNDLE}([^"]+)"\\)`, 'g'),
      (_, file) => `require("./${bundleOf(file)}")(${JSON.stringify(file)})`,
    );
    if (linked.includes(OTHER_BUNDLE)) throw new Error(`${bundle}: a require of another bundle was left unlinked`);
    const code = asciiOnly('var __evaluated = [];\n' + sharedHelpers(shortEsModuleMarks(shortReexports(linked))));
    const codeFile = bundle.replace(/\.js$/, '.code.js');
    writeFileSync(join(root, codeFile), code);
    const buildId = createHash('sha256').update(code).digest('hex').slice(0, 16);
    const codePath = JSON.stringify(`./${codeFile}`);
    writeFileSync(join(root, bundle), `"use strict";\nif (!require("./code-cache.js").load(module, require, ${JSON.stringify(codeFile)}, "${buildId}")) module.exports = require(${codePath});\n`);
    for (const f of files) {
      const up = '../'.repeat(f.split('/').length - 1) || './';
      writeFileSync(join(root, f), `"use strict";\nmodule.exports = require("${up}${bundle}")(${JSON.stringify(f)});\n`);
    }
    count += files.length;
  }
  copyFileSync(fileURLToPath(new URL('./code-cache.cjs', import.meta.url)), join(root, 'code-cache.js'));
  return count;
}

/**
 * tsc writes each `export { X } from './x'` as a getter of its own, a function literal V8 pre-parses
 * with the bundle (~250, 155 of them in bundle.js: ~4 M instructions of a stdio start-up). One shared
 * helper makes the same getter (live, so a lazy module still loads on first read, and as tsc's:
 * enumerable, not writable, not configurable).
 */
const REEXPORT = /Object\.defineProperty\(exports2, "(\w+)", \{ enumerable: true, get: function\(\) \{\s*return (\w+)\.\1;\s*\} \}\);/g;
const REEXPORT_HELPER = 'var __reexport = (e, m, n) => Object.defineProperty(e, n, { enumerable: true, get: () => m[n] });\n';
export function shortReexports(text) {
  const short = text.replace(REEXPORT, (_, name, mod) => `__reexport(exports2, ${mod}, "${name}");`);
  return short === text ? text : REEXPORT_HELPER + short;
}

/** tsc's `__esModule` mark, once per module (130 in bundle.js), as a call: ~2 M instructions of a stdio start-up. */
const ES_MODULE_MARK = 'Object.defineProperty(exports2, "__esModule", { value: true });';
const ES_MODULE_HELPER = 'var __esModuleMark = (e) => Object.defineProperty(e, "__esModule", { value: true });\n';
export function shortEsModuleMarks(text) {
  const short = text.replaceAll(ES_MODULE_MARK, '__esModuleMark(exports2);');
  return short === text ? text : ES_MODULE_HELPER + short;
}

/**
 * tsc writes its `__decorate` and `__metadata` helpers into every module that uses decorators (7 of
 * bundle.js's): one copy per bundle, defined first, saves V8 parsing and compiling each (~2 M
 * instructions of a stdio start-up). tsc's `exports2 && exports2.__decorate ||` reads a name no module
 * exports, so it always took its own function, which every copy is.
 */
const TSC_HELPERS = ['__decorate', '__metadata'];
export function sharedHelpers(text) {
  let shared = '';
  for (const name of TSC_HELPERS) {
    const copy = new RegExp(`\n( +)var ${name} = exports2 && exports2\\.${name} \\|\\| (function\\([^)]*\\) \\{[\\s\\S]*?\\n\\1\\});\n`, 'g');
    const bodies = new Set();
    text = text.replace(copy, (_, indent, fn) => {
      bodies.add(fn.replaceAll(`\n${indent}`, '\n'));
      return `\n${indent}var ${name} = __tsc${name};\n`;
    });
    if (bodies.size > 1) throw new Error(`tsc's ${name} helper differs between modules: update ${import.meta.url}`);
    for (const fn of bodies) shared += `var __tsc${name} = ${fn};\n`;
  }
  return shared + text;
}

/**
 * esbuild escapes non-ASCII characters in code but keeps comments as written, and one "—" in a
 * comment makes V8 hold and scan the whole source as two-byte text (~13 M instructions more to load
 * bundle.js). A \\uXXXX escape means the same character in a string, template, regex or identifier.
 */
export function asciiOnly(text) {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A relative require of a file outside this bundle stays a require: of the plain file (cold files,
 * rewritten relative to the bundles, which sit in `root`) or of the other bundle (marked, then linked).
 */
function leaveOut(root, outside, bundleOf) {
  return {
    name: 'leave-other-files-out',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind === 'entry-point' || !args.resolveDir) return undefined;
        const target = relative(root, resolve(args.resolveDir, args.path)).split('\\').join('/');
        const file = [target, `${target}.js`, `${target}/index.js`].find((f) => f.endsWith('.js') && existsSync(join(root, f)));
        if (!file || !outside(file)) return undefined;
        return bundleOf(file) ? { path: `${OTHER_BUNDLE}${file}`, external: true } : { path: `./${target}`, external: true };
      });
    },
  };
}

/**
 * A relative require (not the entry's) of one of LAZY_MODULES gets its getters; the getters get the
 * module, from this bundle or (marked, then linked) from the bundle that holds it.
 */
function lazyModules(root, bundle, bundleOf) {
  return {
    name: 'lazy-modules',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${LAZY_HELPER}$`) }, () => ({ path: LAZY_HELPER, namespace: 'lazy-helper' }));
      build.onLoad({ filter: /.*/, namespace: 'lazy-helper' }, () => ({ contents: LAZY_HELPER_SOURCE, loader: 'js' }));
      build.onResolve({ filter: new RegExp(`^${EAGER}`) }, (args) => {
        const file = args.path.slice(EAGER.length);
        if (bundleOf(file) !== bundle) return { path: `${OTHER_BUNDLE}${file}`, external: true };
        return { path: resolve(root, file) };
      });
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind === 'entry-point' || args.importer === '<stdin>' || !args.resolveDir) return undefined;
        const target = relative(root, resolve(args.resolveDir, args.path)).split('\\').join('/');
        const file = [`${target}.js`, target].find((f) => LAZY_MODULES.includes(f));
        return file ? { path: file, namespace: 'lazy-module' } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'lazy-module' }, (args) => ({
        contents: lazyModuleSource(root, args.path),
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

function lazyPackages() {
  return {
    name: 'lazy-packages',
    setup(build) {
      const exact = Object.keys(LAZY_PACKAGES).map((n) => n.replace(/[/.@-]/g, '\\$&')).join('|');
      // The lazy module's own requires (of the package, or of one of its files) stay plain requires.
      build.onResolve({ filter: /.*/, namespace: 'lazy' }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: new RegExp(`^(?:${exact})$`) }, (args) => ({ path: args.path, namespace: 'lazy' }));
      build.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
        contents: lazyPackageSource(args.path, LAZY_PACKAGES[args.path]),
        loader: 'js',
      }));
    },
  };
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (name.endsWith('.js') && !name.startsWith('bundle')) yield path;
  }
}
