/**
 * `onemodelcontext dev`: the real effects for DevLoop (tsc, node, a chokidar watcher). Its own lines go to stderr:
 * stdout may carry MCP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DevCommand } from './args';
import { DevLoop, type BuildResult, type RunningServer } from './dev-loop';
import { CliError, type Output } from './output';
import { watchSources } from './source-watcher';
const LISTENING = /listening on (\S+)/i;
/** Set for the server `dev` runs (docs/getting-started.md). */
export const DEV_ENV = 'ONEMODELCONTEXT_DEV';

export function localTsc(projectDir: string): string {
  const tsc = join(projectDir, 'node_modules', '.bin', process.platform === 'win32' ? 'tsc.cmd' : 'tsc');
  if (!existsSync(tsc)) throw new CliError(`TypeScript is not installed in ${projectDir}: run npm install first.`);
  return tsc;
}

function build(tsc: string, request: DevCommand, projectDir: string): Promise<BuildResult> {
  return new Promise((resolve) => {
    const child = spawn(tsc, ['-p', request.tsconfig], {
      cwd: projectDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => resolve({ ok: false, output: error.message }));
    child.once('close', (code) => resolve({ ok: code === 0, output }));
  });
}

function start(request: DevCommand, projectDir: string, report: (line: string) => void): RunningServer {
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', request.entry], {
    cwd: projectDir,
    stdio: ['inherit', 'inherit', 'pipe'],
    // Tells the app its stop is a developer's restart: the scaffold's main then withdraws open questions at once.
    env: { ...process.env, [DEV_ENV]: '1' },
  });
  let announced = false;
  const announce = setTimeout(() => {
    // A stdio server prints nothing: it is ready once it is running.
    if (!announced && child.exitCode === null)
      report(`started ${request.entry} (no "listening on" line yet: a stdio server prints none)`);
  }, 3_000);
  announce.unref();
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    const url = LISTENING.exec(chunk.toString('utf8'))?.[1];
    if (url && !announced) {
      announced = true;
      report(`ready: listening on ${url}`);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    if (!stopping) report(`the server exited (${signal ?? `code ${code}`}); waiting for a change to rebuild`);
  });
  let stopping = false;
  return {
    async stop() {
      stopping = true;
      clearTimeout(announce);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // A server drains on SIGTERM (in-flight calls finish): say so when that takes a moment.
      const slow = setTimeout(
        () => report(`waiting for the server (pid ${child.pid}) to finish its requests and exit; Ctrl+C again kills it`),
        2_000,
      );
      await exited;
      clearTimeout(slow);
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

export async function runDev(request: DevCommand, projectDir: string, out: Output): Promise<number> {
  const tsc = localTsc(projectDir);
  const src = join(projectDir, 'src');
  if (!existsSync(src)) throw new CliError(`${src} not found: run dev in a project folder (or pass --cwd <project>).`);
  const report = (line: string) => out.error(`[dev] ${line}`);
  const loop = new DevLoop({
    build: () => build(tsc, request, projectDir),
    start: () => start(request, projectDir, report),
    report,
  });

  const watcher = watchSources(src, () => void loop.changed());
  await watcher.ready;
  report(`watching ${src}; Ctrl+C stops`);
  await loop.changed();

  return new Promise((resolve) => {
    let stopping = false;
    const shutdown = () => {
      if (stopping) return loop.kill(); // the second Ctrl+C does not wait for the drain
      stopping = true;
      report('stopping…');
      void watcher.close();
      void loop.stop().then(() => resolve(0));
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  });
}
