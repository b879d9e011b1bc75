/**
 * scripts/check-house.mjs (run by `npm run lint`): no import cycle among src/'s files, type-only
 * imports included, and no file over 400 lines. Fixture trees show it finds both; src/ has neither.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const script = join(__dirname, '../../../scripts/check-house.mjs');

interface Found {
  cycles: string[][];
  longFiles: Array<{ file: string; lines: number }>;
}

function check(root: string): Found {
  return JSON.parse(execFileSync(process.execPath, [script, '--json', root], { encoding: 'utf8' })) as Found;
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'house-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the house rules', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('finds a cycle made of type-only imports across folders, and names its files', () => {
    const root = tree({
      'engine/run.ts': "import { open } from '../rooms/open';\nexport type Deps = { n: number };\nexport const run = open;\n",
      'rooms/open.ts': "import type { Deps } from '../engine/run';\nexport const open = (d: Deps) => d.n;\n",
      'rooms/leaf.ts': "import { open } from './open';\nexport const leaf = open;\n",
    });
    made.push(root);
    expect(check(root).cycles).toEqual([['engine/run.ts', 'rooms/open.ts']]);
  });

  it('finds a cycle through an index file and a dynamic import', () => {
    const root = tree({
      'a/index.ts': "export { b } from '../b';\n",
      'b.ts': "export const b = () => import('./a');\n",
    });
    made.push(root);
    expect(check(root).cycles).toEqual([['a/index.ts', 'b.ts']]);
  });

  it('finds a file over 400 lines', () => {
    const root = tree({ 'big.ts': 'export const x = 1;\n'.repeat(401), 'ok.ts': 'export const y = 1;\n'.repeat(400) });
    made.push(root);
    expect(check(root).longFiles).toEqual([{ file: 'big.ts', lines: 401 }]);
  });

  it('src/ has no import cycle and no file over 400 lines', () => {
    expect(check(join(__dirname, '../../../src'))).toEqual({ cycles: [], longFiles: [] });
  });
});
