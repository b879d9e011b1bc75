/**
 * Serves installed ES modules to a real browser without a bundler: a module's bare imports
 * (`@modelcontextprotocol/client`, `zod/v4`) are rewritten to `/modules/<path>` URLs resolved
 * through each package's `exports` with the browser's conditions. For tests only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const CONDITIONS = ['browser', 'import', 'module', 'default'];
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)(["'])([^"'./][^"']*)\2/g;

type Exports = string | string[] | { [key: string]: Exports } | null;

function pick(entry: Exports | undefined): string | undefined {
  if (entry === undefined || entry === null) return undefined;
  if (typeof entry === 'string') return entry;
  if (Array.isArray(entry)) return entry.map((e) => pick(e)).find((e) => e !== undefined);
  for (const condition of CONDITIONS) if (condition in entry) return pick(entry[condition]);
  return undefined;
}

function subpathOf(exportsField: Exports, subpath: string): string | undefined {
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) {
    return subpath === '.' ? pick(exportsField) : undefined;
  }
  if (exportsField === null) return undefined;
  const keys = Object.keys(exportsField);
  if (!keys.some((k) => k.startsWith('.'))) return subpath === '.' ? pick(exportsField) : undefined;
  if (subpath in exportsField) return pick(exportsField[subpath]);
  for (const key of keys) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const [head, tail] = [key.slice(0, star), key.slice(star + 1)];
    if (subpath.startsWith(head) && subpath.endsWith(tail)) {
      const middle = subpath.slice(head.length, subpath.length - tail.length);
      return pick(exportsField[key])?.replace('*', middle);
    }
  }
  return undefined;
}

/** The file a bare specifier names, seen from `importer`. */
export function resolveBare(specifier: string, importer: string): string {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  const subpath = '.' + specifier.slice(name.length);
  for (let dir = dirname(importer); ; dir = dirname(dir)) {
    const pkgDir = join(dir, 'node_modules', name);
    if (existsSync(join(pkgDir, 'package.json'))) {
      const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
      const target =
        pkg.exports !== undefined
          ? subpathOf(pkg.exports, subpath)
          : subpath === '.'
            ? (typeof pkg.browser === 'string' ? pkg.browser : undefined) ?? pkg.module ?? pkg.main ?? 'index.js'
            : subpath;
      if (!target) throw new Error(`${specifier}: not exported by ${pkgDir}`);
      return resolve(pkgDir, target);
    }
    if (dir === dirname(dir)) throw new Error(`${specifier}: not installed (from ${importer})`);
  }
}

/** A module's source with its bare imports pointing at `/modules/…` URLs under `root`. */
export function rewriteModule(file: string, root: string): string {
  return readFileSync(file, 'utf8').replace(SPECIFIER, (_all, lead: string, quote: string, specifier: string) => {
    const target = resolveBare(specifier, file);
    return `${lead}${quote}${moduleUrl(target, root)}${quote}`;
  });
}

export function moduleUrl(file: string, root: string): string {
  return '/modules/' + relative(root, file).split(sep).join('/');
}
