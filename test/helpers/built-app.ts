import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Path of a compiled entry under build/; `npm test` builds it first (npm run build && npm run build:apps). */
export function builtEntry(relative: string): string {
  const path = join(__dirname, '..', '..', 'build', relative);
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: run \`npm run build && npm run build:apps\` first (npm test does).`);
  }
  return path;
}
