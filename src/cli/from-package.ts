/**
 * `create --from <tarball|folder>`: the new project depends on a local build of onemodelcontext
 * instead of the registry. The package is copied into the project as `vendor/<name>.tgz` (a folder
 * is packed first; its `prepack` builds it) and referenced as `file:vendor/…`, so the project
 * installs from nothing, can be moved, and gets the framework's dependencies from npm like a
 * published install would (a `file:` link to a checkout would share the checkout's node_modules).
 */
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { CliError, type Output } from './output';
import { NPM, runStep } from './run-step';

export const VENDOR_DIR = 'vendor';

/** Checks `--from` before anything is written; returns its absolute path and kind. */
export function checkFrom(from: string): { path: string; kind: 'tarball' | 'folder' } {
  const path = resolve(from);
  if (!existsSync(path)) throw new CliError(`--from ${from}: no such file or folder.`);
  if (statSync(path).isDirectory()) {
    if (!existsSync(join(path, 'package.json')))
      throw new CliError(
        `--from ${from}: the folder has no package.json (give a onemodelcontext checkout or a .tgz from npm pack).`,
      );
    return { path, kind: 'folder' };
  }
  if (!/\.tgz$/.test(path)) throw new CliError(`--from ${from}: expected a .tgz made by npm pack, or a folder.`);
  return { path, kind: 'tarball' };
}

/** Puts the package into `<project>/vendor/` and returns the dependency spec for package.json. */
export async function vendorPackage(
  from: { path: string; kind: 'tarball' | 'folder' },
  projectDir: string,
  out: Output,
): Promise<string> {
  const vendor = join(projectDir, VENDOR_DIR);
  mkdirSync(vendor, { recursive: true });
  if (from.kind === 'tarball') {
    copyFileSync(from.path, join(vendor, basename(from.path)));
    out.info(`  create ${VENDOR_DIR}/${basename(from.path)}`);
    return `file:${VENDOR_DIR}/${basename(from.path)}`;
  }
  const stdout = await runStep(
    {
      label: `packing ${from.path} (npm pack builds it)`,
      command: NPM,
      args: ['pack', '--json', '--pack-destination', vendor],
      cwd: from.path,
    },
    out,
  );
  const filename = packedFilename(stdout);
  out.info(`  create ${VENDOR_DIR}/${filename}`);
  return `file:${VENDOR_DIR}/${filename}`;
}

/** `npm pack --json` prints the build's output before the JSON when prepack runs; take the JSON array at the end. */
export function packedFilename(stdout: string): string {
  const start = stdout.lastIndexOf('\n[');
  const json = JSON.parse(start >= 0 ? stdout.slice(start + 1) : stdout) as Array<{ filename?: string }>;
  const filename = json[0]?.filename;
  if (!filename) throw new CliError(`npm pack did not report a file name:\n${stdout.slice(-500)}`);
  return filename.replace(/^@/, '').replace('/', '-');
}
