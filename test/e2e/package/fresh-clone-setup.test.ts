/**
 * Issue 13, "two commands": on a fresh clone, the set-up `npm test` and `npm start` run first
 * (scripts/setup.mjs, their pre-scripts) installs from the lockfile, is quiet once installed, and
 * `npm install` leaves the tree clean. Runs the set-up path only, not the suite (no recursion).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let clone: string;
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'omc-fresh-'));
  clone = join(work, 'clone');
  execFileSync('git', ['clone', '--quiet', repo, clone]);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const setup = () => spawnSync(process.execPath, ['scripts/setup.mjs'], { cwd: clone, encoding: 'utf8' });

test('npm test and npm start run the set-up first', () => {
  const scripts = (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  expect(scripts.pretest).toBe('node scripts/setup.mjs --test');
  expect(scripts.prestart).toBe('node scripts/setup.mjs');
  // npm pack on a fresh clone installs first (it used to fail on a missing typescript/bin/tsc).
  expect(scripts.prepack).toBe('node scripts/setup.mjs && node scripts/build.mjs');
  // prepare runs in an installed tarball too, where scripts/ is not shipped: it must do nothing there.
  const prepare = spawnSync('sh', ['-c', scripts.prepare!], { cwd: work, encoding: 'utf8' });
  expect(prepare.status).toBe(0);
  expect(prepare.stderr).toBe('');
});

test('from nothing it installs from the lockfile; then it is quiet; npm install leaves the tree clean', () => {
  expect(existsSync(join(clone, 'node_modules'))).toBe(false);
  const first = setup();
  expect(first.status).toBe(0);
  expect(first.stderr).toContain('node_modules is missing; installing from package-lock.json');
  expect(existsSync(join(clone, 'node_modules', '.bin', 'tsc'))).toBe(true);
  expect(existsSync(join(clone, 'node_modules', '.bin', 'jest'))).toBe(true);

  const second = setup();
  expect(second.status).toBe(0);
  expect(second.stdout + second.stderr).toBe('');

  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: clone, stdio: 'ignore' });
  expect(execFileSync('git', ['status', '--porcelain'], { cwd: clone, encoding: 'utf8' })).toBe('');
}, 6 * 60_000);

test('a lockfile that changed since the install is noticed', () => {
  const stamp = join(clone, 'node_modules', '.onemodelcontext-lock-sha256');
  expect(readFileSync(stamp, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  // Pretend the install came from another lockfile: the next run says so and installs again.
  execFileSync(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(stamp)}, '0'.repeat(64))`]);
  const again = setup();
  expect(again.status).toBe(0);
  expect(again.stderr).toContain('installed from another package-lock.json');
  expect(setup().stderr).toBe('');
}, 6 * 60_000);

test('before the tests it also makes sure redis-server and nginx are there, quietly when they are', () => {
  // CI ran scripts/install-debian.sh (so does this set-up on a fresh machine): nothing to say now.
  const tests = spawnSync(process.execPath, ['scripts/setup.mjs', '--test'], { cwd: clone, encoding: 'utf8' });
  expect(tests.status).toBe(0);
  expect(tests.stdout + tests.stderr).toBe('');
});
