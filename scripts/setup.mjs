// The set-up `npm start` and `npm test` run first (prestart/pretest), so both work on a fresh clone:
// install from the lockfile when node_modules is missing or was installed from another lockfile.
// Quiet when there is nothing to do. `--stamp` only records the installed lockfile (npm's
// `prepare` runs it after every `npm ci` / `npm install`, so a manual install counts too).
// `--test` also makes sure the fleet tests' Debian packages (redis-server, nginx) are there:
// scripts/install-debian.sh installs what is missing (quiet when both are present), or the run
// stops at once naming the command to run.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lockfile = join(root, 'package-lock.json');
const stamp = join(root, 'node_modules', '.onemodelcontext-lock-sha256');

const lockHash = () => createHash('sha256').update(readFileSync(lockfile)).digest('hex');
const installed = () => existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === lockHash();

if (process.argv.includes('--stamp')) {
  if (existsSync(join(root, 'node_modules'))) writeFileSync(stamp, `${lockHash()}\n`);
} else if (!installed()) {
  const why = existsSync(join(root, 'node_modules')) ? 'node_modules was installed from another package-lock.json' : 'node_modules is missing';
  console.error(`setup: ${why}; installing from package-lock.json (npm ci)…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (!installed()) writeFileSync(stamp, `${lockHash()}\n`);
}

if (process.argv.includes('--test')) {
  const install = join(root, 'scripts', 'install-debian.sh');
  const ran = spawnSync('bash', [install], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (ran.status !== 0) {
    console.error('setup: the fleet tests need redis-server and nginx; install them with: bash scripts/install-debian.sh');
    process.exit(1);
  }
}
