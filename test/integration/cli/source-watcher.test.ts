/**
 * The dev loop's watcher hears every save, including editors' rename-saves: `sed -i` writes a new
 * file and renames it over the old one (as vim and JetBrains' safe write do), three times in a row,
 * then a plain in-place write to the same file, then a new file in a new folder.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchSources, type SourceWatcher } from '../../../src/cli/source-watcher';

let dir: string;
let watcher: SourceWatcher;
const heard: string[] = [];
let waiting: (() => void) | undefined;

/** Resolves at the next settled change (the watcher calls back once per save). */
const nextChange = () => new Promise<void>((resolve) => (waiting = resolve));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omc-watch-'));
  writeFileSync(join(dir, 'tool.ts'), 'export const n = 0;\n');
  watcher = watchSources(dir, (path) => {
    heard.push(path);
    waiting?.();
  }, 50);
  await watcher.ready;
});

afterAll(async () => {
  await watcher.close();
  rmSync(dir, { recursive: true, force: true });
});

test('three rename-saves, then an in-place write, then a new folder: every one is heard', async () => {
  const file = join(dir, 'tool.ts');
  for (let i = 1; i <= 3; i++) {
    const change = nextChange();
    execFileSync('sed', ['-i', `s/n = ${i - 1}/n = ${i}/`, file]);
    await change;
  }
  expect(heard).toEqual([file, file, file]);

  let change = nextChange();
  appendFileSync(file, '// touched in place\n');
  await change;
  expect(heard).toHaveLength(4);

  change = nextChange();
  mkdirSync(join(dir, 'more'));
  writeFileSync(join(dir, 'more', 'other.ts'), 'export {};\n');
  await change;
  expect(heard.at(-1)).toMatch(/more/);
});
