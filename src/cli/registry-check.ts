/**
 * Before `create` installs from the registry: is this version of the package there at all? While it
 * is unpublished (or a pre-release build is used), `npm install` would fail with E404 after a long
 * wait and no hint; ask the registry first (`npm view`, seconds) and name `--from`. Anything but a
 * clear "not found" (offline, a proxy, a slow registry) lets create go on as before.
 */
import { spawn } from 'node:child_process';
import { CliError } from './output';
import { NPM } from './run-step';

const LOOKUP_TIMEOUT_MS = 20_000;

export async function assertOnRegistry(name: string, version: string, npm = NPM): Promise<void> {
  const answer = await lookup(npm, [`${name}@${version}`, 'version', '--json']);
  if (!/\bE404\b/.test(answer)) return;
  throw new CliError(
    `${name}@${version} is not on the npm registry, so the new project could not install it. ` +
      `Create it from a local copy instead: --from <tarball or folder> (in a clone of ${name}: ` +
      `npm pack, then --from ./${name}-${version}.tgz), or pass --no-install.`,
  );
}

/** The command's stdout and stderr together; empty when it could not run or took too long. */
function lookup(npm: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const shell = process.platform === 'win32';
    const child = spawn(npm, ['view', ...args], { stdio: ['ignore', 'pipe', 'pipe'], shell });
    const timer = setTimeout(() => (child.kill(), resolve('')), LOOKUP_TIMEOUT_MS);
    child.stdout.on('data', (c: Buffer) => (text += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (text += c.toString('utf8')));
    child.once('error', () => (clearTimeout(timer), resolve('')));
    child.once('close', () => (clearTimeout(timer), resolve(text)));
  });
}
