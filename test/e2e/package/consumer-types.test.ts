/**
 * Issue 13, entry points: an app with neither express nor fastify installed compiles against the
 * built package without skipLibCheck (the adapters live on subpaths), and the subpaths load from
 * CommonJS and ESM. The consumer gets a node_modules of its own holding only what a user installs:
 * this package (package.json + dist), its dependencies and required peers — not our devDependencies.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..', '..');
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
let app: string;

beforeAll(() => {
  if (!existsSync(join(repo, 'dist', 'cjs', 'index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  app = mkdtempSync(join(tmpdir(), 'omc-consumer-'));
  const modules = join(app, 'node_modules');
  const pkg = join(modules, 'onemodelcontext');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(repo, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(repo, 'dist'), join(pkg, 'dist'), { recursive: true });
  const manifest = require(join(repo, 'package.json')) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  // What npm installs for a user: dependencies and the required peers (not optional ones like redis).
  const peers = Object.keys(manifest.peerDependencies).filter((p) => !manifest.peerDependenciesMeta?.[p]?.optional);
  const deps = [...Object.keys(manifest.dependencies), ...peers];
  for (const dep of [...deps, '@types/node']) {
    mkdirSync(join(modules, dep, '..'), { recursive: true });
    symlinkSync(join(repo, 'node_modules', dep), join(modules, dep), 'dir');
  }
});
afterAll(() => rmSync(app, { recursive: true, force: true }));

function compile(source: string, moduleResolution: 'node16' | 'node10'): string {
  writeFileSync(join(app, 'index.ts'), source);
  const module = moduleResolution === 'node16' ? 'node16' : 'commonjs';
  try {
    execFileSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--experimentalDecorators',
        '--emitDecoratorMetadata',
        '--target',
        'es2022',
        '--module',
        module,
        '--moduleResolution',
        moduleResolution,
        '--types',
        'node',
        'index.ts',
      ],
      { cwd: app, encoding: 'utf8' },
    );
    return '';
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? e);
  }
}

const MAIN = `import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Context, McpApplication, Tool, createFetchHandler, serveHttp } from 'onemodelcontext';
class Args { @IsString() name!: string; }
class Greeter {
  @Tool({ description: 'Greets' })
  greet(args: Args, _ctx: Context) { return 'Hello, ' + args.name; }
}
const app = McpApplication.create({ name: 'g', version: '1.0.0', providers: [Greeter] });
void serveHttp; void createFetchHandler(app);
`;

test('express and fastify are not installed here', () => {
  expect(existsSync(join(app, 'node_modules', 'express'))).toBe(false);
  expect(existsSync(join(app, 'node_modules', '@types', 'express'))).toBe(false);
  expect(existsSync(join(app, 'node_modules', 'fastify'))).toBe(false);
});

test.each(['node16', 'node10'] as const)('the main entry compiles without skipLibCheck (moduleResolution %s)', (resolution) => {
  expect(compile(MAIN, resolution)).toBe('');
});

test('the fetch subpath compiles too; the express subpath names what is missing', () => {
  expect(
    compile(`import { createFetchHandler } from 'onemodelcontext/fetch';\nvoid createFetchHandler;\n`, 'node16'),
  ).toBe('');
  expect(compile(`import { mcpExpress } from 'onemodelcontext/express';\nvoid mcpExpress;\n`, 'node16')).toMatch(
    /Cannot find module 'express'/,
  );
});

test('the subpaths load from CommonJS and ESM', () => {
  const cjs = execFileSync(
    process.execPath,
    [
      '-e',
      "require('reflect-metadata');const e=require('onemodelcontext/express'),f=require('onemodelcontext/fastify'),h=require('onemodelcontext/fetch');console.log(typeof e.mcpExpress,typeof f.mcpFastify,typeof h.createFetchHandler)",
    ],
    { cwd: app, encoding: 'utf8' },
  );
  expect(cjs.trim()).toBe('function function function');
  const esm = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import 'reflect-metadata'; import {mcpExpress} from 'onemodelcontext/express'; import {createFetchHandler} from 'onemodelcontext/fetch'; import * as main from 'onemodelcontext'; console.log(typeof mcpExpress, typeof createFetchHandler, 'mcpExpress' in main)",
    ],
    { cwd: app, encoding: 'utf8' },
  );
  expect(esm.trim()).toBe('function function false');
});

test('the redis subpath: names redis when it is missing; with redis installed it compiles and loads from CommonJS and ESM', () => {
  const source = `import { connectRedis, RedisFlowStore } from 'onemodelcontext/redis';\nvoid connectRedis; void RedisFlowStore;\n`;
  expect(compile(source, 'node16')).toMatch(/Cannot find module 'redis'/);
  for (const dep of ['redis', '@redis'])
    symlinkSync(join(repo, 'node_modules', dep), join(app, 'node_modules', dep), 'dir');
  try {
    expect(compile(source, 'node16')).toBe('');
    const cjs = execFileSync(
      process.execPath,
      ['-e', "const r=require('onemodelcontext/redis');console.log(typeof r.connectRedis,typeof r.RedisFlowStore)"],
      { cwd: app, encoding: 'utf8' },
    );
    expect(cjs.trim()).toBe('function function');
    const esm = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import {connectRedis} from 'onemodelcontext/redis'; import * as main from 'onemodelcontext'; console.log(typeof connectRedis, 'connectRedis' in main)",
      ],
      { cwd: app, encoding: 'utf8' },
    );
    expect(esm.trim()).toBe('function false');
  } finally {
    for (const dep of ['redis', '@redis']) rmSync(join(app, 'node_modules', dep), { force: true });
  }
});

test('without @opentelemetry/api (an optional peer) the package serves from CommonJS and ESM, access log included', () => {
  expect(existsSync(join(app, 'node_modules', '@opentelemetry', 'api'))).toBe(false);
  const program = (imports: string) =>
    `${imports}
class Echo { echo() { return 'hi'; } }
Tool({ description: 'Echo' })(Echo.prototype, 'echo', Object.getOwnPropertyDescriptor(Echo.prototype, 'echo'));
const logger = { warn() {}, error() {}, info: (m, d) => console.log(m, d.method, d.outcome) };
const modules = [ContextServerModule.configure({ logger, telemetry: { accessLog: true } })];
const app = McpApplication.create({ name: 'g', version: '1.0.0', providers: [Echo], modules });
MemoryClient.connect(app, { era: 'modern' })
  .then((c) => c.request('tools/call', { name: 'echo', arguments: {} }))
  .then((r) => console.log(r.content[0].text));`;
  const cjs = execFileSync(
    process.execPath,
    [
      '-e',
      program(
        "require('reflect-metadata'); const { ContextServerModule, McpApplication, MemoryClient, Tool } = require('onemodelcontext');",
      ),
    ],
    { cwd: app, encoding: 'utf8' },
  );
  const esm = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      program(
        "import 'reflect-metadata'; import { ContextServerModule, McpApplication, MemoryClient, Tool } from 'onemodelcontext';",
      ),
    ],
    { cwd: app, encoding: 'utf8' },
  );
  expect(cjs.trim().split('\n')).toEqual(['mcp request tools/call ok', 'hi']);
  expect(esm.trim().split('\n')).toEqual(['mcp request tools/call ok', 'hi']);
});
