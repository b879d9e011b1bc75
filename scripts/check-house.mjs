// The house rules the linter cannot see (docs/architecture.md): no import cycle among the files of
// src/ (type-only imports count: they tie two files together for a reader just the same), and no
// file of src/ over MAX_LINES lines. `npm run lint` runs it; exits 1 naming each cycle and file.
// `--json <dir>` prints what it found for another tree (the test's fixtures) instead of failing.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_LINES = 400;

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sources(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

/** Every file's relative imports, resolved to files. */
export function importGraph(root) {
  const graph = new Map();
  for (const file of sources(root)) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    for (const m of text.matchAll(IMPORT)) {
      const target = resolveImport(file, m[1] ?? m[2]);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The strongly connected components with more than one file (or a file importing itself): Tarjan. */
export function cycles(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const visit = (v) => {
    info.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).onStack) {
        info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
      }
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!info.has(v)) visit(v);
  return found;
}

export function longFiles(root, max = MAX_LINES) {
  return sources(root)
    .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > max);
}

function main() {
  const json = process.argv.indexOf('--json');
  const root = resolve(json >= 0 ? process.argv[json + 1] : join(dirname(fileURLToPath(import.meta.url)), '..', 'src'));
  const found = { cycles: cycles(importGraph(root)), longFiles: longFiles(root) };
  const rel = (f) => relative(process.cwd(), f);
  if (json >= 0) {
    console.log(JSON.stringify({
      cycles: found.cycles.map((c) => c.map((f) => relative(root, f))),
      longFiles: found.longFiles.map((f) => ({ ...f, file: relative(root, f.file) })),
    }));
    return;
  }
  for (const c of found.cycles) console.error(`import cycle: ${c.map(rel).join(' ⇄ ')}`);
  for (const f of found.longFiles) {
    console.error(`${rel(f.file)}: ${f.lines} lines (the house rule is at most ${MAX_LINES}: split it along a seam)`);
  }
  if (found.cycles.length > 0 || found.longFiles.length > 0) process.exit(1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
