/** create and add against a temp folder, without installing anything (the e2e test installs and runs). */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { ownPackage } from '../../../src/cli/package-root';

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: { info: (l: string) => lines.push(l), error: (l: string) => errors.push(l) } };
}

let root: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'omc-cli-'))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

const read = (...p: string[]) => readFileSync(join(root, ...p), 'utf8');

describe('create', () => {
  test('scaffolds a stdio project and prints each file it writes', async () => {
    const { lines, out } = capture();
    expect(await runCli(['create', join(root, 'My Server'), '--no-install'], out)).toBe(0);
    const dir = join(root, 'My Server');
    for (const f of [
      'package.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'tsconfig.test.json',
      'jest.config.js',
      '.gitignore',
      'README.md',
      'src/main.ts',
      'src/app.ts',
      'src/echo.tool.ts',
      'test/echo.tool.test.ts',
      'src/hello.tool.ts',
      'test/hello.tool.test.ts',
    ]) {
      expect(existsSync(join(dir, f))).toBe(true);
      expect(lines).toContain(`  create ${f}`);
    }
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const ours = ownPackage();
    expect(pkg.name).toBe('my-server');
    expect(pkg.dependencies).toEqual({
      onemodelcontext: `^${ours.version}`,
      'reflect-metadata': ours.devDependencies['reflect-metadata'],
      'class-validator': ours.devDependencies['class-validator'],
    });
    expect(pkg.devDependencies).toEqual({
      '@types/jest': '30.0.0',
      '@types/node': ours.devDependencies['@types/node'],
      jest: ours.devDependencies.jest,
      typescript: '5.9.3',
    });
    // Stack traces of `npm start` point into src/*.ts, not dist/*.js: maps emitted and read.
    expect(pkg.scripts.start).toBe('npm run build && node --enable-source-maps dist/main.js');
    expect(JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')).compilerOptions.sourceMap).toBe(true);
    const main = readFileSync(join(dir, 'src/main.ts'), 'utf8');
    expect(main).toContain('serveStdio');
    expect(main.split('\n').find((l) => l.startsWith('import'))).toBe("import 'reflect-metadata';");
    expect(readFileSync(join(dir, 'src/app.ts'), 'utf8')).toContain('providers: [EchoTool, HelloTool]');
    expect(readFileSync(join(dir, 'src/hello.tool.ts'), 'utf8')).toContain('ctx.confirm(');
    // One plain tool that asks nothing: the first call in the Inspector succeeds whatever the client.
    expect(readFileSync(join(dir, 'src/echo.tool.ts'), 'utf8')).not.toMatch(/ctx\./);
    expect(pkg.scripts).toMatchObject({
      dev: 'onemodelcontext dev',
      inspect: 'npm run build && onemodelcontext inspect',
    });
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    expect(lines).toContain('  npm install');
    expect(JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')).compilerOptions).toMatchObject({
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      strict: true,
      // Node16 (CommonJS output here): TypeScript 7 removed moduleResolution node10.
      module: 'Node16',
    });
    expect(
      JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')).compilerOptions.moduleResolution,
    ).toBeUndefined();
    // Tests run on tsc's output (TypeScript 5 and 7 alike), not through ts-jest.
    expect(readFileSync(join(dir, 'jest.config.js'), 'utf8')).toContain('tsconfig.test.json');
    expect(lines.join('\n')).not.toMatch(/\{\{/);
  });

  test('--transport http and --name', async () => {
    const { out } = capture();
    expect(
      await runCli(['create', join(root, 'p'), '--transport', 'http', '--name', '@acme/desk', '--no-install'], out),
    ).toBe(0);
    expect(read('p', 'src/main.ts')).toContain(
      "serveHttp(createApp(), { port: Number(process.env.PORT ?? 3000), host: '127.0.0.1', path: '/mcp' })",
    );
    expect(JSON.parse(read('p', 'package.json')).name).toBe('@acme/desk');
    expect(JSON.parse(read('p', 'package.json')).scripts.inspect).toBe(
      'onemodelcontext inspect --url http://127.0.0.1:3000/mcp',
    );
    expect(read('p', 'src/app.ts')).toContain("name: '@acme/desk'");
  });

  test('refuses a non-empty folder unless --force', async () => {
    mkdirSync(join(root, 'busy'));
    writeFileSync(join(root, 'busy', 'notes.txt'), 'keep me');
    const { errors, out } = capture();
    expect(await runCli(['create', join(root, 'busy'), '--no-install'], out)).toBe(1);
    expect(errors.join('\n')).toMatch(/is not empty \(notes\.txt\).*--force/);
    expect(existsSync(join(root, 'busy', 'package.json'))).toBe(false);
    expect(await runCli(['create', join(root, 'busy'), '--force', '--no-install'], capture().out)).toBe(0);
    expect(read('busy', 'notes.txt')).toBe('keep me');
    // --force twice replaces the generated files instead of failing on them.
    expect(await runCli(['create', join(root, 'busy'), '--force', '--no-install'], capture().out)).toBe(0);
  });

  test('an invalid package name is refused before anything is written', async () => {
    const { errors, out } = capture();
    expect(await runCli(['create', join(root, 'x'), '--name', 'Bad Name', '--no-install'], out)).toBe(1);
    expect(errors[0]).toMatch(/Invalid package name "Bad Name"/);
    expect(existsSync(join(root, 'x'))).toBe(false);
  });
});

describe('add', () => {
  beforeEach(async () => expect(await runCli(['create', join(root, 'p'), '--no-install'], capture().out)).toBe(0));

  test.each([
    ['tool', 'Weather', 'weather.tool', 'WeatherTool', '@Tool('],
    ['prompt', 'Summary', 'summary.prompt', 'SummaryPrompt', '@Prompt('],
    ['resource', 'Docs', 'docs.resource', 'DocsResource', '@Resource('],
    ['resource-template', 'Book', 'book.resource-template', 'BookResourceTemplate', '@ResourceTemplate('],
  ])('%s %s', async (kind, name, moduleName, className, decorator) => {
    const { lines, out } = capture();
    expect(await runCli(['add', kind, name, '--cwd', join(root, 'p')], out)).toBe(0);
    expect(read('p', 'src', `${moduleName}.ts`)).toContain(decorator);
    expect(read('p', 'src', `${moduleName}.ts`)).toContain(`export class ${className}`);
    const test = read('p', 'test', `${moduleName}.test.ts`);
    expect(test).toContain("from '../src/app'");
    // One style for every generated test: the test kit, on both eras.
    expect(test).toContain("import { connectTestClient, forEachEra } from 'onemodelcontext';");
    expect(test).toMatch(/forEachEra\(/);
    expect(read('p', 'src/app.ts')).toContain(`providers: [EchoTool, HelloTool, ${className}]`);
    expect(read('p', 'src/app.ts')).toContain(`import { ${className} } from './${moduleName}';`);
    expect(lines).toEqual([
      `  create src/${moduleName}.ts`,
      `  create test/${moduleName}.test.ts`,
      `  update src/app.ts (${className} added to providers)`,
    ]);
  });

  test('never overwrites: a second add of the same name fails and changes nothing', async () => {
    await runCli(['add', 'tool', 'Weather', '--cwd', join(root, 'p')], capture().out);
    writeFileSync(join(root, 'p/src/weather.tool.ts'), '// mine');
    const app = read('p', 'src/app.ts');
    const { errors, out } = capture();
    expect(await runCli(['add', 'tool', 'Weather', '--cwd', join(root, 'p')], out)).toBe(1);
    expect(errors[0]).toMatch(/Not overwriting src\/weather\.tool\.ts and test\/weather\.tool\.test\.ts/);
    expect(read('p', 'src/weather.tool.ts')).toBe('// mine');
    expect(read('p', 'src/app.ts')).toBe(app);
  });

  test('an app.ts without a providers array: clear error, no files written', async () => {
    writeFileSync(join(root, 'p/src/app.ts'), 'export const app = 1;\n');
    const { errors, out } = capture();
    expect(await runCli(['add', 'tool', 'Weather', '--cwd', join(root, 'p')], out)).toBe(1);
    expect(errors[0]).toMatch(/Could not find `providers: \[`/);
    expect(existsSync(join(root, 'p/src/weather.tool.ts'))).toBe(false);
  });

  test('bad names and a folder that is not a project', async () => {
    const { errors, out } = capture();
    expect(await runCli(['add', 'tool', 'weather', '--cwd', join(root, 'p')], out)).toBe(1);
    expect(await runCli(['add', 'tool', 'Weather', '--cwd', root], out)).toBe(1);
    expect(errors[0]).toMatch(/Invalid tool name: "weather" is not a PascalCase name/);
    expect(errors[1]).toMatch(/src\/app\.ts not found/);
  });
});

describe('help and version', () => {
  test('--help prints the usage; a usage error exits 2', async () => {
    const ok = capture();
    expect(await runCli(['--help'], ok.out)).toBe(0);
    expect(ok.lines[0]).toMatch(/^Usage: onemodelcontext/);
    const bad = capture();
    expect(await runCli(['frobnicate'], bad.out)).toBe(2);
    expect(bad.errors.join('\n')).toMatch(/unknown command 'frobnicate'[\s\S]*--help/);
  });
  test('--version prints our package version', async () => {
    const { lines, out } = capture();
    expect(await runCli(['--version'], out)).toBe(0);
    expect(lines).toEqual([ownPackage().version]);
  });
});

describe('docs/tsconfig.json', () => {
  test('is the tsconfig.json the scaffold writes, as it is (copy-pasteable; the doc snippets compile with it)', () => {
    const strip = (text: string) => JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as Record<string, unknown>;
    const repo = ownPackage().root;
    const docs = strip(readFileSync(join(repo, 'docs', 'tsconfig.json'), 'utf8'));
    const scaffold = strip(readFileSync(join(repo, 'templates', 'project', 'tsconfig.json.tmpl'), 'utf8'));
    expect(docs).toEqual(scaffold);
  });
});

describe('generated descriptions', () => {
  test('no template hands the model a placeholder ("TODO: say what …") as a description', () => {
    const dir = join(ownPackage().root, 'templates');
    const templates = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts.tmpl'));
    const descriptions = templates.flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/\bdescription: '([^']*)'/g)].map((m) => `${file}: ${m[1]}`),
    );
    expect(descriptions.length).toBeGreaterThanOrEqual(5);
    expect(descriptions.filter((d) => /\bTODO\b|say what/i.test(d))).toEqual([]);
  });
});
