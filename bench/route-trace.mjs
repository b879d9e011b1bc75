// The route of one request through src/server, file by file: every exported function and class
// method of dist/cjs/server/** is wrapped to note when control enters its file and when it returns
// to the caller's file. Prints, for each request of a two-round 2026 flow (confirm_echo: an ask,
// input_required, the retry that completes), the files in the order control visits them, how many
// distinct files that is, and how many times control comes back to a file it had left.
//
//   npm run build && node bench/route-trace.mjs [--dist <path to another build's dist/cjs>] [--renames <a>..<b>]
//
// Beside the files it prints the same route by room (the folder under src/server; the top level is
// "(top)"). `--renames a..b` names an older build's files by where git moved them between commits
// a and b, so an older build's route is grouped into today's rooms and the two compare.
//
// Each step is attributed to the file of the code that runs: the caller is read off the stack, so a
// closure handed to another file counts for the file that wrote it, and an async continuation for
// its own file. Calls that stay inside one file are one step (that is the point); calls into files
// outside src/server (transports, context, state) are not steps. Compare two builds with the same script.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { modernBody, modernHeaders } from './lib/wire.mjs';

const { values: a } = parseArgs({
  options: { dist: { type: 'string' }, renames: { type: 'string' } },
});
const dist = resolve(a.dist ?? fileURLToPath(new URL('../dist/cjs', import.meta.url)));
process.env.OMC_DIST = dist;
process.env.TOOLS = 'echo,confirm_echo';

const require = createRequire(import.meta.url);
const { app, omc } = require('./servers/ours.cjs');
const handler = omc.createNodeHandler(app, { path: '/mcp' });

const serverDir = `${dist}/server/`;
let route;

/** The file of the nearest caller frame in src/server (closures and async continuations included). */
function callerFile() {
  const prepare = Error.prepareStackTrace;
  Error.prepareStackTrace = (_e, sites) => sites;
  const holder = {};
  Error.captureStackTrace(holder, callerFile);
  const sites = holder.stack;
  Error.prepareStackTrace = prepare;
  for (const site of sites) {
    const name = site.getFileName() ?? '';
    if (name.startsWith(serverDir)) return name.slice(serverDir.length).replace(/\.js$/, '.ts');
  }
  return undefined;
}

function step(file) {
  if (route && file && route.at(-1) !== file) route.push(file);
}

function enter(file) {
  const caller = callerFile();
  step(caller);
  step(file);
  return caller;
}

function leave(caller) {
  step(caller);
}

function wrapFunction(fn, file) {
  return function traced(...args) {
    const caller = enter(file);
    try {
      return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
    } finally {
      leave(caller);
    }
  };
}

function isClass(fn) {
  return /^class\b/.test(Function.prototype.toString.call(fn));
}

for (const [path, mod] of Object.entries(require.cache)) {
  if (!path.startsWith(serverDir) || !path.endsWith('.js')) continue;
  const file = path.slice(serverDir.length).replace(/\.js$/, '.ts');
  for (const key of Object.keys(mod.exports)) {
    const value = mod.exports[key];
    if (typeof value !== 'function') continue;
    if (isClass(value)) {
      for (const name of Object.getOwnPropertyNames(value.prototype)) {
        const d = Object.getOwnPropertyDescriptor(value.prototype, name);
        if (name === 'constructor' || typeof d.value !== 'function') continue;
        value.prototype[name] = wrapFunction(d.value, file);
      }
      const construct = new Proxy(value, {
        construct(target, args, newTarget) {
          const caller = enter(file);
          try {
            return Reflect.construct(target, args, newTarget);
          } finally {
            leave(caller);
          }
        },
      });
      try { mod.exports[key] = construct; } catch { /* a getter re-export: the class is wrapped where it is defined */ }
      continue;
    }
    try { mod.exports[key] = wrapFunction(value, file); } catch { /* a getter re-export */ }
  }
}

/** Old path (under src/server) → new path, from git's rename detection between two commits. */
const renamed = new Map();
if (a.renames) {
  const out = execFileSync('git', ['diff', '-M25%', '--name-status', a.renames, '--', 'src/server'], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const [status, from, to] = line.split('\t');
    if (status?.startsWith('R')) renamed.set(from.replace('src/server/', ''), to.replace('src/server/', ''));
  }
}

/** Today's files of src/server by base name: an older build's file that git saw deleted and re-added. */
const today = new Map();
if (a.renames) {
  const out = execFileSync('git', ['ls-files', 'src/server'], { encoding: 'utf8' });
  for (const path of out.split('\n').filter(Boolean)) today.set(path.split('/').pop(), path.replace('src/server/', ''));
}

/** The room of a file; undefined for an older build's file that no longer exists (it joins its neighbour). */
function roomOf(file) {
  const path = renamed.get(file) ?? (a.renames && !file.includes('/') ? today.get(file) : file);
  if (path === undefined) return undefined;
  return path.includes('/') ? path.split('/')[0] : '(top)';
}

/** Steps, how many distinct places, and how many returns to a place already left. */
function walk(steps) {
  const seen = new Map();
  let returns = 0;
  for (const [i, place] of steps.entries()) {
    if (seen.has(place) && i > 0) returns++;
    seen.set(place, (seen.get(place) ?? 0) + 1);
  }
  return { seen, returns };
}

function request(headers, text) {
  return new Promise((done, fail) => {
    const sink = {
      gone: false,
      onGone() {},
      send(status, _h, body) { done({ status, body }); },
      openStream() { fail(new Error('unexpected stream')); return { write() {}, end() {} }; },
    };
    handler.endpoint.handle({ method: 'POST', headers, body: { kind: 'raw', read: async () => ({ ok: true, text }) } }, sink);
  });
}

async function traced(label, headers, text) {
  route = [];
  const reply = await request(headers, text);
  const { seen, returns } = walk(route);
  console.log(`\n${label}: ${seen.size} files entered, ${returns} returns to a file already left (${route.length} steps)`);
  console.log(`  ${route.join(' → ')}`);
  const busiest = [...seen].sort((x, y) => y[1] - x[1]).slice(0, 4).map(([f, n]) => `${f} ×${n}`).join(', ');
  console.log(`  most visited: ${busiest}`);
  const rooms = route.map(roomOf).filter((room) => room !== undefined).filter((room, i, all) => i === 0 || all[i - 1] !== room);
  const byRoom = walk(rooms);
  console.log(`  by room: ${byRoom.seen.size} rooms entered, ${byRoom.returns} returns to a room already left: ${rooms.join(' → ')}`);
  route = undefined;
  return JSON.parse(reply.body).result;
}

const headers = { ...modernHeaders('tools/call', 'confirm_echo'), host: '127.0.0.1:4211' };
const args = { name: 'confirm_echo', arguments: { text: 'hello' } };
// Warm: the first call builds lazy things (validators, caches) whose files are not the route.
for (let i = 0; i < 3; i++) {
  const r1 = JSON.parse((await request(headers, modernBody('tools/call', args))).body).result;
  await request(headers, modernBody('tools/call', { ...args, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, requestState: r1.requestState }));
}
console.log(`dist: ${dist}`);
const r1 = await traced('round 1 (asks: input_required)', headers, modernBody('tools/call', args));
const r2 = await traced('round 2 (answered: completes)', headers, modernBody('tools/call', {
  ...args,
  inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
  requestState: r1.requestState,
}));
if (r2.content?.[0]?.text !== 'hello') throw new Error(`the flow did not complete: ${JSON.stringify(r2)}`);
process.exit(0);
