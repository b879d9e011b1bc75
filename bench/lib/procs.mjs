// Server processes: spawn pinned to CPU 0 (taskset when present), poll until ready, sample /proc.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const CLK_TCK = Number(safe(() => execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100);
export const HAS_TASKSET = Boolean(safe(() => execFileSync('which', ['taskset']).toString().trim()));

function safe(fn) { try { return fn(); } catch { return undefined; } }

/** Prefix for a command pinned to one CPU (the load generator pins itself with `pinSelf`). */
export function pinned(cpu, argv) {
  return HAS_TASKSET ? ['taskset', ['-c', String(cpu), ...argv]] : [argv[0], argv.slice(1)];
}

/** Pins the current process (the load generator) to CPU 1. */
export function pinSelf(cpu = 1) {
  if (HAS_TASKSET) safe(() => execFileSync('taskset', ['-pc', String(cpu), String(process.pid)], { stdio: 'ignore' }));
}

/**
 * Starts a server file with env; `nodeArgs` e.g. --cpu-prof. `ipc` adds a message channel;
 * `stdout: 'pipe'` keeps the server's stdout (e.g. V8's --trace-gc-nvp lines) on `child.stdout`.
 */
export function startServer(file, env, { nodeArgs = [], ipc = false, stdout = 'ignore' } = {}) {
  const [cmd, args] = pinned(0, [process.execPath, ...nodeArgs, file]);
  const child = spawn(cmd, args, {
    env: { ...process.env, ...env },
    stdio: ipc ? ['ignore', stdout, 'inherit', 'ipc'] : ['ignore', stdout, 'inherit'],
  });
  child.once('exit', (code, signal) => { child.exited = { code, signal }; });
  return child;
}

export async function stopServer(child, timeoutMs = 5000) {
  if (!child || child.exited) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await gone;
  clearTimeout(timer);
}

/** utime+stime ticks, VmRSS and VmHWM (kB) of a pid. */
export function procStat(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number((status.match(new RegExp(`${k}:\\s+(\\d+)`)) || [])[1] || 0);
  return { cpuTicks: Number(fields[11]) + Number(fields[12]), rssKB: kb('VmRSS'), hwmKB: kb('VmHWM') };
}

/** Polls `probe()` every `everyMs` until it resolves true; bounded by `timeoutMs`. */
export async function waitUntil(probe, { everyMs = 5, timeoutMs = 20_000, what = 'server', child } = {}) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (child?.exited) throw new Error(`${what} exited (${JSON.stringify(child.exited)}) before it was ready`);
    try { if (await probe()) return; } catch { /* not up yet */ }
    if (Date.now() > end) throw new Error(`${what} not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
