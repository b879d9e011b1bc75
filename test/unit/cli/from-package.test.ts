import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFrom, packedFilename, vendorPackage } from '../../../src/cli/from-package';

let root: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'omc-from-'))));
afterEach(() => rmSync(root, { recursive: true, force: true }));
const silent = { info: () => undefined, error: () => undefined };

describe('checkFrom', () => {
  test('a .tgz or a folder with a package.json', () => {
    writeFileSync(join(root, 'onemodelcontext-0.1.0.tgz'), '');
    mkdirSync(join(root, 'checkout'));
    writeFileSync(join(root, 'checkout', 'package.json'), '{}');
    expect(checkFrom(join(root, 'onemodelcontext-0.1.0.tgz'))).toEqual({
      path: join(root, 'onemodelcontext-0.1.0.tgz'),
      kind: 'tarball',
    });
    expect(checkFrom(join(root, 'checkout'))).toEqual({ path: join(root, 'checkout'), kind: 'folder' });
  });

  test('anything else is refused with the reason', () => {
    writeFileSync(join(root, 'notes.txt'), '');
    mkdirSync(join(root, 'empty'));
    expect(() => checkFrom(join(root, 'missing.tgz'))).toThrow(/no such file or folder/);
    expect(() => checkFrom(join(root, 'notes.txt'))).toThrow(/expected a \.tgz/);
    expect(() => checkFrom(join(root, 'empty'))).toThrow(/has no package\.json/);
  });
});

test('a tarball is copied into vendor/ and referenced relatively', async () => {
  writeFileSync(join(root, 'onemodelcontext-0.1.0.tgz'), 'x');
  const project = join(root, 'app');
  mkdirSync(project);
  expect(await vendorPackage({ path: join(root, 'onemodelcontext-0.1.0.tgz'), kind: 'tarball' }, project, silent)).toBe(
    'file:vendor/onemodelcontext-0.1.0.tgz',
  );
  expect(readdirSync(join(project, 'vendor'))).toEqual(['onemodelcontext-0.1.0.tgz']);
});

test('packedFilename reads npm pack --json, after whatever prepack printed', () => {
  const json = JSON.stringify([{ filename: 'onemodelcontext-0.1.0.tgz', files: [{ path: 'a' }] }], null, 2);
  expect(packedFilename(json)).toBe('onemodelcontext-0.1.0.tgz');
  expect(packedFilename(`\n> onemodelcontext@0.1.0 prepack\n> npm run build\n\nbuilt [dist]\n${json}\n`)).toBe(
    'onemodelcontext-0.1.0.tgz',
  );
  expect(packedFilename(JSON.stringify([{ filename: '@scope/pkg-1.0.0.tgz' }]))).toBe('scope-pkg-1.0.0.tgz');
});
