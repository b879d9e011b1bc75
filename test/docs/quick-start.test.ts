/**
 * Issue 33: the README quick start as a new user runs it. Each tsconfig.json the docs show
 * (README.md, docs/getting-started.md) compiles it, copied as it is, under TypeScript 5.9 and 7,
 * in a project that installs the built package; what each compiler emits then answers the official
 * MCP Inspector's CLI (pinned devDependency), which cannot show a question: on both eras `greet`
 * takes its `userConfirmed` fallback argument instead.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { COMPILERS, compile } from '../helpers/compilers';
import { inspectorCli } from '../helpers/inspector';
import { markdownFiles, repo } from './doc-files';

/** The ```lang blocks of a markdown file that follow `heading` (or all of them), with their line. */
function blocks(file: string, lang: string, heading?: string): { line: number; code: string }[] {
  const lines = readFileSync(join(repo, file), 'utf8').split('\n');
  const from = heading ? lines.findIndex((l) => l.trim() === heading) : 0;
  if (from < 0) throw new Error(`${file} has no "${heading}"`);
  const found: { line: number; code: string }[] = [];
  for (let i = from; i < lines.length; i++) {
    if (lines[i]!.trim() !== `\`\`\`${lang}`) continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    found.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return found;
}

const quickStart = blocks('README.md', 'ts', '## Quick start')[0]!.code;
const tsconfigs = ['README.md', 'docs/getting-started.md'].flatMap((file) =>
  blocks(file, 'json')
    .filter((b) => b.code.includes('"compilerOptions"'))
    .map((b) => ({ where: `${file}:${b.line}`, code: b.code })),
);

let project: string;

beforeAll(() => {
  if (!existsSync(join(repo, 'dist', 'cjs', 'index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  project = mkdtempSync(join(tmpdir(), 'omc-quick-start-'));
  mkdirSync(join(project, 'src'));
  writeFileSync(join(project, 'src', 'main.ts'), quickStart);
  // What `npm install` gives the README's reader: the package, its peers and @types/node.
  const modules = join(project, 'node_modules');
  mkdirSync(modules);
  symlinkSync(repo, join(modules, 'onemodelcontext'), 'dir');
  for (const dep of ['reflect-metadata', 'class-validator', 'class-transformer', 'tsyringe', '@types/node']) {
    mkdirSync(dirname(join(modules, dep)), { recursive: true });
    symlinkSync(join(repo, 'node_modules', dep), join(modules, dep), 'dir');
  }
});

afterAll(() => {
  if (project && !process.env.KEEP) rmSync(project, { recursive: true, force: true });
});

test('the docs show a complete tsconfig.json (README and getting-started)', () => {
  expect(tsconfigs.map((t) => t.where)).toEqual([
    expect.stringMatching(/^README\.md:/),
    expect.stringMatching(/^docs\/getting-started\.md:/),
  ]);
});

const cases = tsconfigs.flatMap((t) => COMPILERS.map((c) => [t.where, c.name, t, c] as const));

test.each(cases)('the tsconfig.json of %s compiles the quick start under %s', (_, __, tsconfig, compiler) => {
  writeFileSync(join(project, 'tsconfig.json'), tsconfig.code);
  const outDir = `dist-${compiler.name.replace(/\W+/g, '-')}`;
  expect(compile(compiler, ['-p', '.', '--outDir', outDir], project)).toBe('');
  expect(existsSync(join(project, outDir, 'main.js'))).toBe(true);
}, 5 * 60_000);

/** The Inspector's CLI starts the built quick start itself, as `npx @modelcontextprotocol/inspector --cli node dist/main.js` does. */
const inspector = (entry: string, era: 'legacy' | 'modern', args: string[]) =>
  inspectorCli([process.execPath, entry], era, args, project);

const runs = COMPILERS.flatMap((c) => (['legacy', 'modern'] as const).map((era) => [c.name, era] as const));

test.each(runs)('built by %s, the quick start answers the Inspector CLI (%s era)', (compilerName, era) => {
  const entry = join(project, `dist-${compilerName.replace(/\W+/g, '-')}`, 'main.js');
  if (!existsSync(entry)) throw new Error(`${entry} was not built (see the compile test above)`);
  const listed = inspector(entry, era, ['--method', 'tools/list']) as {
    tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
  };
  expect(listed.tools.map((t) => t.name)).toEqual(['greet']);
  expect(Object.keys(listed.tools[0]!.inputSchema.properties)).toEqual(['name', 'userConfirmed']);

  const call = (extra: string[]) =>
    inspector(entry, era, ['--method', 'tools/call', '--tool-name', 'greet', '--tool-arg', 'name=Ada', ...extra]) as {
      content: unknown;
      isError?: boolean;
    };
  const yes = call(['userConfirmed=true']);
  expect(yes.isError).toBeUndefined();
  expect(yes.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
  expect(call([]).content).toEqual([{ type: 'text', text: 'Not greeted.' }]);
}, 3 * 60_000);

test('the Inspector version the docs name is the one pinned in devDependencies (what these tests run)', () => {
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const pinned = manifest.devDependencies['@modelcontextprotocol/inspector'];
  const named = markdownFiles().flatMap((file) =>
    [...readFileSync(join(repo, file), 'utf8').matchAll(/@modelcontextprotocol\/inspector@([\w.-]+)/g)].map(
      (m) => `${file}: ${m[1]}`,
    ),
  );
  expect(named.length).toBeGreaterThanOrEqual(2);
  expect(named.filter((n) => !n.endsWith(`: ${pinned}`))).toEqual([]);
});
