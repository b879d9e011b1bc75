/**
 * Issue 33: every ```ts block of README.md and docs/*.md compiles under TypeScript 5.9 and 7 with
 * docs/tsconfig.json as it is (test/unit/cli/scaffold-files.test.ts keeps it the file `onemodelcontext
 * create` writes), against the built package: the declarations an installed app gets.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { COMPILERS, compile } from '../helpers/compilers';
import { builtDeclarations, repo, writeBlocks, type Generated } from './doc-files';

const outDir = join(__dirname, '.compilers');
let generated: Generated[] = [];
let failed = false;

beforeAll(() => {
  if (!existsSync(join(repo, 'dist', 'cjs', 'index.d.ts')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  generated = writeBlocks(outDir);
  const paths = Object.fromEntries(
    Object.entries(builtDeclarations()).map(([name, file]) => [name, [relative(outDir, file)]]),
  );
  // docs/tsconfig.json unchanged; only where 'onemodelcontext' is (an app finds it in node_modules).
  const config = {
    extends: relative(outDir, join(repo, 'docs', 'tsconfig.json')),
    compilerOptions: { noEmit: true, paths },
    files: generated.map((g) => relative(outDir, g.path)),
    include: [],
  };
  writeFileSync(join(outDir, 'tsconfig.json'), JSON.stringify(config, null, 2));
});

afterAll(() => {
  // Leftovers would be picked up by `npm run typecheck` (tsconfig includes test/); kept only to debug a failure.
  if (!failed) rmSync(outDir, { recursive: true, force: true });
});

test.each(COMPILERS.map((c) => [c.name, c] as const))(
  'every ts block of README and docs compiles with docs/tsconfig.json under %s',
  (_, compiler) => {
    expect(generated.length).toBeGreaterThan(10);
    const output = compile(compiler, ['-p', 'tsconfig.json'], outDir);
    if (output) failed = true;
    expect(output).toBe('');
  },
  5 * 60_000,
);
