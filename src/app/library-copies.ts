/**
 * Start-up check: one copy of each library whose module state the framework shares with the app.
 * A second copy of tsyringe or class-transformer keeps its own registry, so the app's
 * `@injectable()` or `@Type()` would be invisible to the framework (and two copies of the others
 * split their metadata the same way). They are peer dependencies for that reason; this check names
 * the problem when an install still ends up with two copies loaded.
 */
import { FrameworkError } from '../errors/framework-error';

export const SHARED_LIBRARIES: readonly string[] = Object.freeze([
  'onemodelcontext',
  'reflect-metadata',
  'class-validator',
  'class-transformer',
  'tsyringe',
]);

const NODE_MODULES = '/node_modules/';

/**
 * The package folder of every loaded copy of each library, read from loaded module file names in one
 * pass (it runs at every start-up over hundreds of files, most of them the app's class-validator's):
 * one search per file, for its innermost `/node_modules/` and the package named after it. Each copy
 * of a library has files of its own, whose innermost package it is (a file of a package nested in it
 * names the nested one), so that finds every copy. Either separator, without node:path
 * (onemodelcontext/web loads this).
 */
function copiesOf(libraries: readonly string[], files: Iterable<string>): Map<string, Set<string>> {
  const found = new Map(libraries.map((library) => [library, new Set<string>()]));
  for (const name of files) {
    // Same length, so a folder cut from `file` is cut from `name` (its own separators kept).
    const file = name.includes('\\') ? name.replaceAll('\\', '/') : name;
    const at = file.lastIndexOf(NODE_MODULES);
    if (at < 0) continue;
    const start = at + NODE_MODULES.length;
    let end = file.indexOf('/', start);
    if (end >= 0 && file.charCodeAt(start) === 64 /* @scope/name */) end = file.indexOf('/', end + 1);
    if (end < 0) continue;
    found.get(file.slice(start, end))?.add(name.slice(0, end));
  }
  return found;
}

/** The package folder of every loaded copy of `library`, read from loaded module file names. */
export function loadedCopies(library: string, files: Iterable<string>): string[] {
  return [...(copiesOf([library], files).get(library) ?? [])].sort();
}

/** The message for the first library loaded twice, or undefined. */
export function duplicateLibraryProblem(files: readonly string[]): string | undefined {
  const all = copiesOf(SHARED_LIBRARIES, files);
  for (const library of SHARED_LIBRARIES) {
    const copies = [...(all.get(library) ?? [])].sort();
    if (copies.length < 2) continue;
    return (
      `${copies.length} copies of ${library} are loaded:\n${copies.map((c) => `  ${c}`).join('\n')}\n` +
      `Each keeps its own registry, so what your code registers with one is invisible to onemodelcontext. ` +
      `Install one copy: give your package.json a version that satisfies onemodelcontext's peer range ` +
      `(npm ls ${library} shows who asks for which), then reinstall or run \`npm dedupe\`.`
    );
  }
  return undefined;
}

/** CommonJS modules loaded so far (ESM imports of a library are not visible here; the check then finds nothing). */
function loadedModuleFiles(): string[] {
  return typeof require === 'function' && require.cache ? Object.keys(require.cache) : [];
}

export function assertSingleLibraryCopies(files: readonly string[] = loadedModuleFiles()): void {
  const problem = duplicateLibraryProblem(files);
  if (problem) throw new FrameworkError('OMC_DUPLICATE_LIBRARY', problem);
}
