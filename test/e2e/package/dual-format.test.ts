/** The built package loads from both CommonJS and ESM, as one module instance with the same exports. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

test('require and import see the same exports (the package self-reference resolves dist/)', () => {
  if (!existsSync(join(root, 'dist/cjs/index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  const script = (kind: 'cjs' | 'esm') =>
    kind === 'cjs'
      ? "require('reflect-metadata'); console.log(JSON.stringify(Object.keys(require('onemodelcontext')).sort()))"
      : "import 'reflect-metadata'; import * as m from 'onemodelcontext'; import cjs from 'onemodelcontext'; " +
        "const same = m.McpApplication === require('onemodelcontext').McpApplication; " +
        "console.log(JSON.stringify([Object.keys(m).filter(k => k !== 'default').sort(), same, typeof cjs.Tool]))";
  const cjs = JSON.parse(execFileSync(process.execPath, ['-e', script('cjs')], { cwd: root }).toString());
  const esmWrapped = `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); ${script('esm')}`;
  const [esm, sameInstance, toolType] = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', esmWrapped], { cwd: root }).toString(),
  );
  expect(esm).toEqual(cjs.filter((k: string) => k !== '__esModule'));
  expect(sameInstance).toBe(true);
  expect(toolType).toBe('function');
  expect(existsSync(join(root, 'dist/cjs/index.d.ts'))).toBe(true);
  expect(existsSync(join(root, 'dist/esm/index.d.mts'))).toBe(true);
});
