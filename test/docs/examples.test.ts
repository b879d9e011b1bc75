/**
 * Docs that run: every ```ts block of README.md and docs/*.md is type-checked against src/ with
 * docs/tsconfig.json (the tsconfig.json `onemodelcontext create` writes, plus `paths` to this
 * checkout's sources), and every block whose first line is `// run` is executed (through jest, so
 * 'onemodelcontext' maps to src/index.ts). `// fragment` blocks are checked inside a function with
 * `ctx` and `app` in scope. compilers.test.ts checks the same blocks against the built package
 * under TypeScript 5.9 and 7.
 */
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import type { CodeBlock } from './extract-blocks';
import { repo, writeBlocks } from './doc-files';

const outDir = join(__dirname, '.generated');

/** The package's entry points in this checkout's sources (jest maps them the same way). */
const SOURCES: Record<string, string[]> = {
  onemodelcontext: [join(repo, 'src', 'index.ts')],
  'onemodelcontext/express': [join(repo, 'src', 'adapters', 'express.ts')],
  'onemodelcontext/fastify': [join(repo, 'src', 'adapters', 'fastify.ts')],
  'onemodelcontext/fetch': [join(repo, 'src', 'adapters', 'fetch.ts')],
  'onemodelcontext/redis': [join(repo, 'src', 'redis', 'index.ts')],
  'onemodelcontext/web': [join(repo, 'src', 'web.ts')],
};

const generated = writeBlocks(outDir);

const where = (b: CodeBlock) => `${b.file}:${b.line}`;
let failed = false;

afterAll(() => {
  // Leftovers would be picked up by `npm run typecheck` (tsconfig includes test/); keep them only to debug a failure.
  if (!failed) rmSync(outDir, { recursive: true, force: true });
});

test('the docs have code blocks', () => {
  expect(generated.length).toBeGreaterThan(10);
});

test('every ts block type-checks against src/ with the documented docs/tsconfig.json', () => {
  const configPath = join(repo, 'docs', 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, join(repo, 'docs'));
  // 18003: docs/ holds no .ts of its own; the blocks are handed to the program below.
  expect(parsed.errors.filter((e) => e.code !== 18003)).toEqual([]);
  const program = ts.createProgram(
    generated.map((g) => g.path),
    { ...parsed.options, paths: SOURCES, noEmit: true, noUnusedLocals: false, noUnusedParameters: false },
  );
  const problems = generated.flatMap((g) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(g.path)).map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return `${where(g)} (${relative(repo, g.path)}:${at}): ${text}`;
    }),
  );
  if (problems.length) failed = true;
  expect(problems).toEqual([]);
}, 120_000);

const runnable = generated.filter((g) => g.mode === 'run');

test.each(runnable.map((g) => [where(g), g] as const))('%s runs', async (_, block) => {
  try {
    const example = require(block.path) as { default: () => Promise<void> };
    await example.default();
  } catch (error) {
    failed = true;
    throw error;
  }
});

test('run blocks are whole programs: await only inside main() (docs/tsconfig.json compiles to CommonJS)', () => {
  const topLevelAwait = runnable.filter((g) => /\bawait\b/.test(g.code) && !/^async function main\(/m.test(g.code));
  expect(topLevelAwait.map(where)).toEqual([]);
});
