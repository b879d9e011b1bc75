// Installed size of a minimal server app's production dependencies (issue 34), read from node_modules:
// each package's directory (its own nested node_modules counted as packages of their own), following
// `dependencies` and the non-optional `peerDependencies` the way Node resolves them. Ours is the
// package as published (`files` in package.json) plus that closure; no download, so only peers
// installed here can be printed (mcp-use is not a devDependency today).
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');

function bytesOf(path, skipNodeModules = true) {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return 0;
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const entry of readdirSync(path)) {
    if (skipNodeModules && entry === 'node_modules') continue;
    total += bytesOf(join(path, entry), skipNodeModules);
  }
  return total;
}

function locate(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dir === dirname(dir)) return undefined;
  }
}

function requiredDeps(pkg) {
  const optional = pkg.peerDependenciesMeta ?? {};
  return [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}).filter((n) => !optional[n]?.optional)];
}

/** Bytes of the closure of `names` (resolved from `fromDir`), each package counted once. */
function closure(names, fromDir, seen = new Map()) {
  for (const name of names) {
    const dir = locate(name, fromDir);
    if (!dir) throw new Error(`${name} is not installed (from ${fromDir})`);
    if (seen.has(dir)) continue;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    seen.set(dir, { name, bytes: bytesOf(dir) });
    closure(requiredDeps(pkg), dir, seen);
  }
  return seen;
}

export function installedSize() {
  const ours = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  if (!existsSync(join(ROOT, 'dist'))) throw new Error('dist/ is missing: run npm run build');
  const own = ours.files.reduce((n, f) => n + (existsSync(join(ROOT, f)) ? bytesOf(join(ROOT, f), false) : 0), 0) + statSync(join(ROOT, 'package.json')).size;
  const rows = [];
  const row = (app, packages, extra = 0) => {
    const bytes = [...packages.values()].reduce((n, p) => n + p.bytes, extra);
    rows.push({ app, packages: packages.size + (extra ? 1 : 0), MiB: (bytes / 2 ** 20).toFixed(2) });
    return bytes;
  };
  const oursBytes = row('onemodelcontext (+ class-validator, class-transformer, reflect-metadata, tsyringe)', closure(requiredDeps(ours), ROOT), own);
  const sdkBytes = row('@modelcontextprotocol/server 2.4.0 (+ zod), stdio', closure(['@modelcontextprotocol/server'], ROOT));
  row('@modelcontextprotocol/server + @modelcontextprotocol/node, HTTP', closure(['@modelcontextprotocol/server', '@modelcontextprotocol/node'], ROOT));
  rows.push({ app: 'ours ÷ sdk-v2 (stdio)', packages: '', MiB: (oursBytes / sdkBytes).toFixed(2) });
  return rows;
}
