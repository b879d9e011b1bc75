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

const NODE_MODULES = 'node_modules';
const isSeparator = (c: string | undefined): boolean => c === '/' || c === '\\';

/**
 * The package folder of every loaded copy of each library, read from loaded module file names in one
 * pass (it runs at every start-up over hundreds of files, most of them the app's class-validator's).
 * A file counts for each library with a `node_modules/<library>/` in its path, at the innermost one.
 * Either separator, without node:path (onemodelcontext/web loads this).
 */
function copiesOf(libraries: readonly string[], files: Iterable<string>): Map<string, Set<string>> {
  const copies = new Map(libraries.map((library) => [library, new Set<string>()]));
  for (const file of files) {
    const seen = new Set<string>();
    for (let at = file.lastIndexOf(NODE_MODULES); at > 0; at = file.lastIndexOf(NODE_MODULES, at - 1)) {
      const nameStart = at + NODE_MODULES.length + 1;
      if (!isSeparator(file[at - 1]) || !isSeparator(file[nameStart - 1])) continue;
      let nameEnd = nameStart;
      while (nameEnd < file.length && !isSeparator(file[nameEnd])) nameEnd++;
      if (nameEnd === file.length) continue;
      const library = file.slice(nameStart, nameEnd);
      if (seen.has(library)) continue;
      seen.add(library);
      copies.get(library)?.add(file.slice(0, nameEnd));
    }
  }
  return copies;
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
