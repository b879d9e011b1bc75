'use strict';
// Copied to dist/cjs/code-cache.js by scripts/cjs-bundle.mjs (issue 38). Each bundle's file
// (dist/cjs/bundle.js, …) is a stub that runs its code (bundle.code.js, …) through here: V8 compiles
// the code with the bytecode it cached on an earlier start, so a start-up neither pre-parses the
// bundle nor compiles the functions it runs (what Node 22's module.enableCompileCache does for every
// module; Node 20 has no such thing, and a library should not switch it on for the app's modules).
//
// The cache is one file per bundle in dist/cjs/.code-cache/, beside the code it caches: whoever can
// write it can write the code too, so it adds no one who can change what runs. It is used only when
// its header names this bundle's build (a content hash written by the build), the code file's size
// and mtime, and this Node's version and architecture; V8 itself then checks its version and flags
// and refuses anything else (then we compile as usual and write a new cache).
// V8 caches what has been compiled when the cache is made, so when it is made matters. Without a
// usable cache it is made soon, once the code that loaded the bundle has run (setImmediate: a server's
// start-up is then built, whoever ends the process soon after, even by a signal), and again two seconds
// after the bundle loaded (an unref'd timer: start-up and the first requests are over). A cache made
// soon is replaced once by a process that lives two seconds; one made on the timer is kept. Writes go
// through a temporary file and a rename (two processes may race; the last wins, both whole). Where the
// folder cannot be written (a read-only install) nothing is written and nothing fails.
// ONEMODELCONTEXT_CODE_CACHE=read uses a cache and never writes one (a measurement that must not count
// the writing); =0 turns it off, and a test runner's sandbox (another vm context) does without it: the
// stub then requires the code as a plain file.
const fs = require('node:fs');
const path = require('node:path');
const { Script } = require('node:vm');

const DIR = path.join(__dirname, '.code-cache');
/** How long after a bundle loads its cache is made: after a start-up has run its functions. */
const WRITE_AFTER_MS = 2000;
/** How the cache was made: soon after the bundle loaded (replaced once) or on the timer (kept). */
const SOON = 's';
const ON_TIMER = 't';
/** Bundles whose cache the timer makes: { script, cacheFile, key }. */
const due = [];
let timer;
/**
 * Whether this file runs in Node's main context. A test runner's sandbox (jest runs each test file in
 * a vm context with its own globals: its own `Reflect`, patched by reflect-metadata there, its own
 * Error and Promise) is another, and a script compiled here would run in the main one: there the
 * bundles load as plain files, into the sandbox.
 */
const inMainContext = new Script('globalThis').runInThisContext() === globalThis;

/**
 * Runs `code` (a file beside the stub) as the stub's module: the stub's `module` and `require`, so the
 * code resolves and exports exactly as if it were the stub's own text. False when it did not: the
 * stub then requires the code itself (also what a bundler that inlined the package sees and keeps).
 */
function load(stub, stubRequire, code, build) {
  if (!inMainContext || process.env.ONEMODELCONTEXT_CODE_CACHE === '0') return false;
  const file = path.join(__dirname, code);
  let source, stat;
  try {
    source = fs.readFileSync(file, 'utf8');
    stat = fs.statSync(file);
  } catch {
    return false; // not on disk beside us: bundled into an app's own file
  }
  const key = `${build} ${stat.size} ${Math.trunc(stat.mtimeMs)} ${process.version} ${process.arch}`;
  const cacheFile = path.join(DIR, `${code}.bin`);
  const cached = readCache(cacheFile, key);
  // Node's own CommonJS wrapper, on the code's first line, so line numbers match the file.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
  const script = new Script(wrapped, { filename: file, cachedData: cached?.data });
  script.runInThisContext().call(stub.exports, stub.exports, stubRequire, stub, file, __dirname);
  const usable = cached !== undefined && !script.cachedDataRejected;
  if ((usable && cached.made === ON_TIMER) || process.env.ONEMODELCONTEXT_CODE_CACHE === 'read') return true;
  const entry = { script, cacheFile, key };
  if (!usable) setImmediate(write, [entry], SOON);
  due.push(entry);
  timer ??= setTimeout(writeOnTimer, WRITE_AFTER_MS).unref();
  return true;
}

/** The cache's bytes for V8 and how it was made, if its header names `key`. */
function readCache(cacheFile, key) {
  let bytes;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const head = Buffer.from(`${key} `, 'latin1');
  const start = head.length + 2; // the kind and a newline
  if (bytes.length <= start || !bytes.subarray(0, head.length).equals(head) || bytes[start - 1] !== 10) return undefined;
  return { made: String.fromCharCode(bytes[head.length]), data: bytes.subarray(start) };
}

/** A bundle loaded later (the first request's) is made with the others, or starts the timer anew. */
function writeOnTimer() {
  timer = undefined;
  write(due.splice(0), ON_TIMER);
}

function write(entries, made) {
  if (entries.length === 0) return;
  try {
    fs.mkdirSync(DIR, { recursive: true });
    fs.accessSync(DIR, fs.constants.W_OK);
  } catch {
    return; // a read-only install: start-ups compile as before
  }
  for (const { script, cacheFile, key } of entries) {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${key} ${made}\n`, 'latin1'), script.createCachedData()]));
      fs.renameSync(tmp, cacheFile);
    } catch {
      try { fs.unlinkSync(tmp); } catch { /* never written */ }
    }
  }
}

module.exports = { load };
