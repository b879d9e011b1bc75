/**
 * Runs one of the oidc-provider test servers (test/helpers/oidc-*.mjs) in its own Node process
 * (the provider is ESM only): the configuration goes in as JSON in argv[2], and the server prints
 * one line `{"issuer": …}` once it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface OidcProcess {
  readonly issuer: string;
  stop(): Promise<void>;
}

export async function startOidcProcess(script: string, config: unknown): Promise<OidcProcess> {
  const child = spawn(process.execPath, [join(__dirname, script), JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const issuer = await firstLine(child, () => stderr);
  return { issuer, stop: () => stopChild(child) };
}

function firstLine(child: ChildProcess, stderr: () => string): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  return new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`oidc-provider exited (${code}): ${stderr()}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
