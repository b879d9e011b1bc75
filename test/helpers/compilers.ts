/**
 * The two compilers the docs promise: TypeScript 5.9 (our devDependency) and TypeScript 7. TypeScript
 * 7 is the `typescript` package too, so it cannot sit beside 5.9 in our node_modules (both link
 * `.bin/tsc`); it is installed once from the registry into node_modules/.cache, pinned.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const TYPESCRIPT_7_VERSION = '7.0.2';

const repo = join(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface Compiler {
  name: string;
  /** The compiler's tsc script, run with `node`. */
  tsc: () => string;
}

function typescript7(): string {
  const cache = join(repo, 'node_modules', '.cache');
  const prefix = join(cache, `typescript-${TYPESCRIPT_7_VERSION}`);
  const tsc = join(prefix, 'node_modules', 'typescript', 'bin', 'tsc');
  if (existsSync(tsc)) return tsc;
  // Installed beside, then renamed into place: two test files may ask at once (jest workers).
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, 'typescript-7-'));
  execFileSync(
    npm,
    [
      'install',
      ...['--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefer-offline'],
      `typescript@${TYPESCRIPT_7_VERSION}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    renameSync(staging, prefix);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // the other worker's copy is in place
  }
  return tsc;
}

export const COMPILERS: Compiler[] = [
  { name: 'TypeScript 5.9', tsc: () => join(repo, 'node_modules', 'typescript', 'bin', 'tsc') },
  { name: `TypeScript ${TYPESCRIPT_7_VERSION}`, tsc: typescript7 },
];

/** Runs `tsc` with these arguments in `cwd`; returns its diagnostics ('' when it succeeded). */
export function compile(compiler: Compiler, args: string[], cwd: string): string {
  try {
    execFileSync(process.execPath, [compiler.tsc(), '--pretty', 'false', ...args], { cwd, encoding: 'utf8' });
    return '';
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message;
  }
}
