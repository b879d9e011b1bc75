/** Finds this package's root (package.json + templates/) from src/cli or dist/cjs/cli alike. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface OwnPackage {
  root: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

export function ownPackage(start = __dirname): OwnPackage {
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as Partial<OwnPackage> & { name?: string };
      if (json.name === 'onemodelcontext') {
        return {
          root: dir,
          version: json.version ?? '0.0.0',
          dependencies: json.dependencies ?? {},
          devDependencies: json.devDependencies ?? {},
        };
      }
    }
    if (dirname(dir) === dir) throw new Error(`Cannot find the onemodelcontext package.json above ${start}.`);
  }
}

export function templatesDir(pkg: OwnPackage = ownPackage()): string {
  return join(pkg.root, 'templates');
}
