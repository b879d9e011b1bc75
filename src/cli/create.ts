/** `onemodelcontext create <dir>`: a runnable, tested MCP server project. */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { CreateCommand, Transport } from './args';
import { addComponent } from './add';
import { checkFrom, vendorPackage } from './from-package';
import { packageNameFromFolder, packageNameProblem } from './names';
import { CliError, type Output } from './output';
import { ownPackage, templatesDir, type OwnPackage } from './package-root';
import { renderFile } from './render';
import { NPM, runStep } from './run-step';
import { assertOnRegistry } from './registry-check';

export type CreateRequest = Omit<CreateCommand, 'command'>;

/** The asking tool every new project gets (a DTO and a `ctx.confirm`); app.ts starts with the plain EchoTool. */
export const FIRST_TOOL = 'Hello';

/** Template → file in the new project. `.gitignore` is stored without its dot because npm pack drops it. */
const PROJECT_FILES: ReadonlyArray<{ template: string; file: string }> = [
  { template: 'tsconfig.json.tmpl', file: 'tsconfig.json' },
  { template: 'tsconfig.build.json.tmpl', file: 'tsconfig.build.json' },
  { template: 'tsconfig.test.json.tmpl', file: 'tsconfig.test.json' },
  { template: 'jest.config.js.tmpl', file: 'jest.config.js' },
  { template: 'gitignore.tmpl', file: '.gitignore' },
  { template: 'README.md.tmpl', file: 'README.md' },
  { template: 'src/app.ts.tmpl', file: 'src/app.ts' },
];

export async function createProject(
  request: CreateRequest,
  out: Output,
  pkg: OwnPackage = ownPackage(),
): Promise<string> {
  const dir = resolve(request.dir);
  const packageName = request.name ?? packageNameFromFolder(basename(dir));
  const problem = packageNameProblem(packageName);
  if (problem)
    throw new CliError(`Invalid package name "${packageName}": ${problem}. Pass --name <package> to choose one.`);
  assertUsableFolder(dir, request.force);
  const from = request.from === undefined ? undefined : checkFrom(request.from);
  if (!from && request.install) await assertOnRegistry('onemodelcontext', pkg.version);

  out.info(`Creating ${packageName} in ${dir} (${request.transport})`);
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'), { recursive: true });
  const write = (file: string, text: string) => {
    writeFileSync(join(dir, file), text);
    out.info(`  create ${file}`);
  };

  const framework = from ? await vendorPackage(from, dir, out) : `^${pkg.version}`;
  write(
    'package.json',
    `${JSON.stringify(projectPackageJson(packageName, request.transport, pkg, framework), null, 2)}\n`,
  );
  const values = {
    packageName,
    transportLine: request.transport === 'http' ? 'Streamable HTTP on http://127.0.0.1:3000/mcp' : 'stdio',
  };
  const templates = join(templatesDir(pkg), 'project');
  for (const { template, file } of PROJECT_FILES) write(file, renderFile(join(templates, template), values));
  write('src/main.ts', renderFile(join(templates, 'src', `main.${request.transport}.ts.tmpl`), values));
  write('src/echo.tool.ts', renderFile(join(templates, 'src', 'echo.tool.ts.tmpl'), values));
  write('test/echo.tool.test.ts', renderFile(join(templates, 'test', 'echo.tool.test.ts.tmpl'), values));
  addComponent({ kind: 'tool', name: FIRST_TOOL, projectDir: dir, overwrite: request.force }, out);
  if (request.install) {
    await runStep(
      {
        label: 'installing dependencies (npm install)',
        command: NPM,
        args: ['install', '--no-audit', '--no-fund'],
        cwd: dir,
      },
      out,
    );
  }

  const cd = relative(process.cwd(), dir) || '.';
  out.info('');
  out.info('Done. Next:');
  out.info(`  cd ${cd.includes(' ') ? JSON.stringify(cd) : cd}`);
  if (!request.install) out.info('  npm install');
  out.info('  npm test      # the generated tests, both protocol eras');
  out.info('  npm run dev   # rebuild and restart on every change');
  out.info('  npm run inspect   # try it in the MCP Inspector');
  return dir;
}

function assertUsableFolder(dir: string, force: boolean): void {
  if (!existsSync(dir)) return;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    throw new CliError(`${dir} exists and is not a folder.`);
  }
  const meaningful = entries.filter((e) => e !== '.git');
  if (meaningful.length > 0 && !force) {
    throw new CliError(
      `${dir} is not empty (${meaningful.slice(0, 3).join(', ')}${meaningful.length > 3 ? ', …' : ''}). Use an empty folder, or --force to write into it anyway (files with the same names are replaced).`,
    );
  }
}

/** The generated package.json: our exact tool versions, so the project builds like ours does. */
export function projectPackageJson(
  name: string,
  transport: Transport,
  pkg: OwnPackage,
  framework = `^${pkg.version}`,
): Record<string, unknown> {
  const ours = (table: Record<string, string>, dep: string) => {
    const version = table[dep];
    if (!version)
      throw new Error(`onemodelcontext's package.json does not list ${dep}; the scaffolder needs its version.`);
    return version;
  };
  return {
    name,
    version: '0.1.0',
    private: true,
    description: `An MCP server (${transport}) built with onemodelcontext`,
    main: 'dist/main.js',
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      // Stack traces point at src/*.ts (tsconfig.json emits the source maps).
      start: 'npm run build && node --enable-source-maps dist/main.js',
      dev: 'onemodelcontext dev',
      inspect:
        transport === 'http'
          ? 'onemodelcontext inspect --url http://127.0.0.1:3000/mcp'
          : 'npm run build && onemodelcontext inspect',
      test: 'jest',
      typecheck: 'tsc --noEmit',
    },
    dependencies: {
      onemodelcontext: framework,
      'reflect-metadata': ours(pkg.devDependencies, 'reflect-metadata'),
      // Same version as the framework's, so both share one metadata store for the DTO decorators.
      'class-validator': ours(pkg.devDependencies, 'class-validator'),
    },
    devDependencies: Object.fromEntries(
      ['@types/jest', '@types/node', 'jest', 'typescript'].map((dep) => [dep, ours(pkg.devDependencies, dep)]),
    ),
  };
}
