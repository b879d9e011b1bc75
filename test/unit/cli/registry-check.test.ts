/**
 * `create` without --from asks the registry first: an E404 stops it at once naming --from; any other
 * outcome (offline, a slow proxy) lets it go on. A stand-in `npm` (a real child process) answers.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOnRegistry } from '../../../src/cli/registry-check';

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'omc-npm-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeNpm(name: string, script: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  return file;
}

test('E404 from npm view: a CliError naming --from and npm pack', async () => {
  const npm = fakeNpm('npm404', 'echo "npm error code E404" >&2; echo \'{"error":{"code":"E404"}}\'; exit 1');
  await expect(assertOnRegistry('onemodelcontext', '0.1.0', npm)).rejects.toThrow(
    /onemodelcontext@0\.1\.0 is not on the npm registry.*--from <tarball or folder>.*npm pack/s,
  );
});

test('published, offline or a missing npm: create goes on', async () => {
  const published = fakeNpm('npmok', 'echo \'"0.1.0"\'');
  await expect(assertOnRegistry('onemodelcontext', '0.1.0', published)).resolves.toBeUndefined();
  await expect(
    assertOnRegistry('onemodelcontext', '0.1.0', fakeNpm('npmoff', 'echo "npm error code ENOTFOUND" >&2; exit 1')),
  ).resolves.toBeUndefined();
  await expect(assertOnRegistry('onemodelcontext', '0.1.0', join(dir, 'no-such-npm'))).resolves.toBeUndefined();
});
