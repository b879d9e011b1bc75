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
// and refuses anything else (then we compile as usual and write a new cache). It is written once per
// process, when there was none or it was refused: on a timer after start-up (unref'd), or at exit if
// the process ends first, through a temporary file and a rename (two processes may race; the last
// wins, both whole). Where the folder cannot be written (a read-only install) nothing is written and
// nothing fails. ONEMODELCONTEXT_CODE_CACHE=0 turns it off: the code is then a plain require.
const fs = require('node:fs');
const path = require('node:path');
const { Script } = require('node:vm');

const DIR = path.join(__dirname, '.code-cache');
/** How long after the first bundle loads the cache is written: after a start-up has run its functions. */
const WRITE_AFTER_MS = 2000;
/** Bundles loaded without a usable cache: they are written once start-up is over. */
const toWrite = [];
let timer;

/**
 * Runs `code` (a file beside the stub) as the stub's module: the stub's `module` and `require`, so the
 * code resolves and exports exactly as if it were the stub's own text.
 */
function load(stub, stubRequire, code, build) {
  const file = path.join(__dirname, code);
  if (process.env.ONEMODELCONTEXT_CODE_CACHE === '0') {
    stub.exports = stubRequire(file);
    return;
  }
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const header = `${build} ${stat.size} ${Math.trunc(stat.mtimeMs)} ${process.version} ${process.arch}\n`;
  const cacheFile = path.join(DIR, `${code}.bin`);
  const cachedData = readCache(cacheFile, header);
  // Node's own CommonJS wrapper, on the code's first line, so line numbers match the file.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, { filename: file, cachedData });
  script.runInThisContext().call(stub.exports, stub.exports, stubRequire, stub, file, __dirname);
  if (cachedData === undefined || script.cachedDataRejected) remember({ script, cacheFile, header });
}

function readCache(cacheFile, header) {
  let bytes;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const head = Buffer.from(header, 'latin1');
  return bytes.length > head.length && bytes.subarray(0, head.length).equals(head) ? bytes.subarray(head.length) : undefined;
}

/** A bundle loaded later (the first request's) waits its own start-up time after it loads. */
function remember(entry) {
  if (toWrite.push(entry) === 1) process.once('exit', writeAll);
  if (timer === undefined) timer = setTimeout(writeAll, WRITE_AFTER_MS).unref();
}

function writeAll() {
  clearTimeout(timer);
  timer = undefined;
  process.removeListener('exit', writeAll);
  const entries = toWrite.splice(0);
  if (entries.length === 0) return;
  try {
    fs.mkdirSync(DIR, { recursive: true });
    fs.accessSync(DIR, fs.constants.W_OK);
  } catch {
    return; // a read-only install: start-ups compile as before
  }
  for (const { script, cacheFile, header } of entries) {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, Buffer.concat([Buffer.from(header, 'latin1'), script.createCachedData()]));
      fs.renameSync(tmp, cacheFile);
    } catch {
      try { fs.unlinkSync(tmp); } catch { /* never written */ }
    }
  }
}

module.exports = { load };
