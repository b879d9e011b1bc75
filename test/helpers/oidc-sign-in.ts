/**
 * Starts test/helpers/oidc-sign-in-server.mjs: a real oidc-provider on loopback for the client
 * sign-in tests (open dynamic registration, authorization code + PKCE with a programmatic login and
 * consent, client credentials; JWT access tokens for one resource). Its own process, because the
 * provider is ESM only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface SignInProviderOptions {
  resource: string;
  scopes: string[];
  /** Pre-registered clients (client credentials machines), as oidc-provider client metadata. */
  clients?: Record<string, unknown>[];
}

export interface SignInProvider {
  readonly issuer: string;
  stop(): Promise<void>;
}

export async function startSignInProvider(options: SignInProviderOptions): Promise<SignInProvider> {
  const child = spawn(process.execPath, [join(__dirname, 'oidc-sign-in-server.mjs'), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const issuer = await firstLine(child, () => stderr);
  return { issuer, stop: () => stop(child) };
}

function firstLine(child: ChildProcess, stderr: () => string): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  return new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`oidc-provider exited (${code}): ${stderr()}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
