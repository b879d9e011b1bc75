// A CommonJS build (dist/cjs) of any commit, for `--base` A/B runs: a detached git worktree in a temp
// folder, this checkout's node_modules linked in, `tsc -p tsconfig.build.json`, the output copied to
// bench/out/builds/<sha>/cjs and reused by later runs.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** The dist/cjs folder of `rev` (built on first use). */
export function buildAt(rev, log = () => {}) {
  const sha = git('rev-parse', '--verify', `${rev}^{commit}`);
  const out = join(ROOT, 'bench', 'out', 'builds', sha, 'cjs');
  if (existsSync(join(out, 'index.js'))) return out;
  const tree = join(mkdtempSync(join(tmpdir(), 'omc-build-')), 'src');
  log(`building ${rev} (${sha.slice(0, 7)})`);
  git('worktree', 'add', '--quiet', '--detach', tree, sha);
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: tree, stdio: 'inherit' });
    cpSync(join(tree, 'dist', 'cjs'), out, { recursive: true });
  } finally {
    git('worktree', 'remove', '--force', tree);
    rmSync(join(tree, '..'), { recursive: true, force: true });
  }
  return out;
}
