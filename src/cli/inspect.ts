/**
 * `onemodelcontext inspect`: runs the official MCP Inspector against the app. The Inspector is not
 * the app's dependency: it runs through `npx -y`, at the version our tests use, and the command is
 * printed first so it can be reused.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { InspectCommand } from './args';
import { CliError, type Output } from './output';
import { ownPackage } from './package-root';

export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** `@modelcontextprotocol/inspector@<version>`: the one pinned in our devDependencies, which the docs tests run. */
export function inspectorSpec(devDependencies = ownPackage().devDependencies): string {
  const version = devDependencies[INSPECTOR_PACKAGE];
  return version ? `${INSPECTOR_PACKAGE}@${version}` : INSPECTOR_PACKAGE;
}

/** An HTTP project made by `create` names its endpoint in its `inspect` script; a bare `inspect` uses it. */
export function projectUrl(projectDir: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    return /--url\s+(\S+)/.exec(manifest.scripts?.inspect ?? '')?.[1];
  } catch {
    return undefined;
  }
}

export interface Invocation {
  command: string;
  args: string[];
}

/**
 * The Inspector's command line: over Streamable HTTP when a URL is given (or the project's `inspect`
 * script names one), otherwise it starts the stdio entry itself.
 */
export function inspectorInvocation(
  request: Pick<InspectCommand, 'url' | 'entry'>,
  projectDir: string,
  inspector = inspectorSpec(),
): Invocation {
  const target = request.url ?? projectUrl(projectDir);
  if (target !== undefined) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new CliError(`--url ${target} is not a URL (e.g. http://127.0.0.1:3000/mcp).`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CliError(`--url must be http:// or https:// (got ${url.protocol}).`);
    return { command: NPX, args: ['-y', inspector, '--transport', 'http', '--server-url', url.href] };
  }
  const entry = join(projectDir, request.entry);
  if (!existsSync(entry)) {
    throw new CliError(
      `${relative(process.cwd(), entry) || entry} not found: build first (npm run build), or pass --entry, or --url for a running HTTP server.`,
    );
  }
  return { command: NPX, args: ['-y', inspector, 'node', entry] };
}

/** Quotes an argument for display when it needs it. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function runInspector(request: InspectCommand, projectDir: string, out: Output): Promise<number> {
  const invocation = inspectorInvocation(request, projectDir);
  const display = [invocation.command, ...invocation.args].map(shellWord).join(' ');
  if (request.print) {
    out.info(display);
    return Promise.resolve(0);
  }
  out.info(`Running: ${display}`);
  out.info('(the first run downloads the Inspector; it needs Node.js 22 or newer)');
  return new Promise((resolve, reject) => {
    const child = spawn(invocation.command, invocation.args, {
      cwd: projectDir,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    child.once('error', (error) => reject(new CliError(`Could not run ${invocation.command}: ${error.message}`)));
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
