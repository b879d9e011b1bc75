/**
 * Runs one long external step (npm install, npm pack) with a progress line every few seconds and its output kept for
 * errors.
 */
import { spawn } from 'node:child_process';
import { CliError, type Output } from './output';

export interface Step {
  /** What the user sees, e.g. `installing dependencies (npm install)`. */
  label: string;
  command: string;
  args: readonly string[];
  cwd: string;
}

/** `npm` as a spawnable command on every platform (npm.cmd needs a shell on Windows). */
export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export const PROGRESS_EVERY_MS = 5_000;

/** Resolves with the step's stdout; rejects with a CliError that quotes the end of its output. */
export function runStep(step: Step, out: Output, everyMs = PROGRESS_EVERY_MS): Promise<string> {
  out.info(`  ${step.label}…`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(step.command, [...step.args], {
      cwd: step.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    let stdout = '';
    let all = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      all += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => (all += chunk.toString('utf8')));
    const timer = setInterval(
      () => out.info(`    still ${step.label} (${Math.round((Date.now() - started) / 1000)} s)`),
      everyMs,
    );
    timer.unref();
    const finish = (error?: Error) => {
      clearInterval(timer);
      if (error) reject(error);
      else resolve(stdout);
    };
    child.once('error', (error) => finish(new CliError(`Could not run ${step.command}: ${error.message}`)));
    child.once('close', (code) => {
      if (code === 0) {
        out.info(`  done ${step.label} (${Math.round((Date.now() - started) / 1000)} s)`);
        finish();
        return;
      }
      const tail = all.trimEnd().split('\n').slice(-20).join('\n');
      finish(new CliError(`${step.command} ${step.args.join(' ')} failed in ${step.cwd} (exit ${code}):\n${tail}`));
    });
  });
}
