// Installed size of a minimal server app's production dependencies (issue 34), as a user gets it:
// ours packed with `npm pack` (what would be published) and each peer by its exact installed version,
// each installed into its own empty folder with `npm install --omit=dev --prefer-offline --ignore-scripts`
// (from this machine's npm cache, filled by `npm ci`; npm adds required peer dependencies as it does
// for a user). Size = bytes of every file under node_modules (symlinks not followed); packages = the
// entries of the resulting package-lock.json.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const version = (pkg) => JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;

function bytesOf(path) {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return 0;
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += bytesOf(join(path, entry));
  return total;
}

/** The three biggest top-level packages under `nm` (nested node_modules counted with their parent), "name MiB". */
function largest(nm) {
  const dirs = readdirSync(nm).filter((d) => !d.startsWith('.')).flatMap((d) => (d.startsWith('@') ? readdirSync(join(nm, d)).map((s) => `${d}/${s}`) : [d]));
  return dirs.map((d) => ({ d, b: bytesOf(join(nm, d)) })).sort((x, y) => y.b - x.b).slice(0, 3).map((x) => `${x.d} ${(x.b / 2 ** 20).toFixed(1)}`).join(', ');
}

const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The apps: what a minimal HTTP echo server of each framework depends on. */
function apps(tarball) {
  const at = (pkg) => `${pkg}@${version(pkg)}`;
  return [
    { app: 'ours', note: 'npm pack of this checkout (dist built), with its required peers class-validator, class-transformer, reflect-metadata, tsyringe', specs: [tarball] },
    { app: 'sdk-v2', note: `${at('@modelcontextprotocol/server')} + ${at('@modelcontextprotocol/node')} (its Node HTTP adapter)`, specs: [at('@modelcontextprotocol/server'), at('@modelcontextprotocol/node')] },
    { app: 'mcp-use', note: at('mcp-use'), specs: [at('mcp-use')] },
    { app: 'fastmcp', note: at('fastmcp'), specs: [at('fastmcp')] },
    // xmcp's built server (dist/http.js) bundles the SDK but requires ajv's runtime and ajv-formats, which
    // are not in xmcp's own production closure: a deployed app must list them (the compiler is dev-only).
    { app: 'xmcp', note: `${at('xmcp')} (+ zod, its required peer) + ${at('ajv')} + ${at('ajv-formats')}, which its built server requires at run time`,
      specs: [at('xmcp'), at('ajv'), at('ajv-formats')] },
  ];
}

/** Rows { app, packages, MiB, note } plus ours ÷ each; `only` limits the apps (comma list). */
export function installedSize({ only, log = () => {} } = {}) {
  const work = mkdtempSync(join(tmpdir(), 'omc-size-'));
  try {
    const tarball = join(work, npm(['pack', '--ignore-scripts', '--pack-destination', work], ROOT).trim().split('\n').pop());
    const wanted = only ? new Set(only.split(',')) : undefined;
    const rows = [];
    for (const a of apps(tarball).filter((x) => !wanted || wanted.has(x.app))) {
      const dir = join(work, a.app);
      execFileSync('mkdir', ['-p', dir]);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `size-${a.app}`, version: '1.0.0', private: true }));
      log(`installing ${a.app} (production only, from the npm cache where it has it)`);
      npm(['install', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--save-exact', ...a.specs], dir);
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
      const packages = Object.keys(lock.packages).filter((k) => k.startsWith('node_modules/') || k.includes('/node_modules/')).length;
      rows.push({ app: a.app, packages, bytes: bytesOf(join(dir, 'node_modules')), largest: largest(join(dir, 'node_modules')), note: a.note });
    }
    const ours = rows.find((r) => r.app === 'ours');
    for (const r of rows) { r.MiB = r.bytes / 2 ** 20; r.oursOver = ours ? ours.bytes / r.bytes : NaN; }
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
