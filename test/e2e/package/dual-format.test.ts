/**
 * The built package loads from both CommonJS and ESM with the same exports; the ESM build is real ES
 * modules (not a wrapper of dist/cjs), and `onemodelcontext/web` imports no Node built-in that an
 * edge runtime lacks.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root }).toString();

beforeAll(() => {
  if (!existsSync(join(root, 'dist/esm/index.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does).');
});

test.each([
  ['onemodelcontext', 'index'],
  ['onemodelcontext/web', 'web'],
  ['onemodelcontext/fetch', 'adapters/fetch'],
  ['onemodelcontext/redis', 'redis/index'],
])('require and import of %s see the same exports (the self-reference resolves dist/)', (entry, file) => {
  const cjs = JSON.parse(
    node(['-e', `require('reflect-metadata'); console.log(JSON.stringify(Object.keys(require('${entry}')).sort()))`]),
  );
  const esm = JSON.parse(
    node([
      '--input-type=module',
      '-e',
      `import 'reflect-metadata'; import * as m from '${entry}'; console.log(JSON.stringify(Object.keys(m).sort()))`,
    ]),
  );
  expect(esm).toEqual(cjs.filter((k: string) => k !== '__esModule'));
  const source = readFileSync(join(root, 'dist/esm', `${file}.js`), 'utf8');
  expect(source).not.toMatch(/dist\/cjs|\.\.\/cjs\//);
  expect(source).toMatch(/^export /m);
  expect(existsSync(join(root, `dist/cjs/${file}.d.ts`))).toBe(true);
});

test('the ES modules import each other (the ESM graph does not load dist/cjs)', () => {
  const script =
    "import 'reflect-metadata'; import { McpApplication } from 'onemodelcontext'; " +
    "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); " +
    "const ours = Object.keys(require.cache).filter((f) => !f.includes('node_modules') && f.includes('/dist/cjs/')); " +
    'console.log(JSON.stringify({ cjsLoaded: ours.length, type: typeof McpApplication }))';
  expect(JSON.parse(node(['--input-type=module', '-e', script]))).toEqual({ cjsLoaded: 0, type: 'function' });
});

test('the bundled ES entries share one copy of each class (shared chunks, not a copy per entry)', () => {
  const script =
    "import 'reflect-metadata'; import * as root from 'onemodelcontext'; import * as web from 'onemodelcontext/web'; " +
    "import * as fetch from 'onemodelcontext/fetch'; " +
    'console.log(JSON.stringify({ app: root.McpApplication === web.McpApplication, ' +
    'error: root.FrameworkError === web.FrameworkError, handler: root.createFetchHandler === fetch.createFetchHandler }))';
  expect(JSON.parse(node(['--input-type=module', '-e', script]))).toEqual({ app: true, error: true, handler: true });
});
