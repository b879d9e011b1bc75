/**
 * `onemodelcontext bridge --stdio` told to stop by a signal takes its stdio upstream down first (SIGTERM
 * at once), rather than ending its stdin and waiting 2 s: the official v2 client SIGKILLs a server 1 s
 * after SIGTERM, and an upstream that ignores the end of its stdin was left orphaned. Needs `npm run build`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

jest.setTimeout(60_000);

const BIN = join(__dirname, '../../../bin/onemodelcontext.js');
const UPSTREAM = join(__dirname, 'fixtures/stubborn-upstream.cjs');

/** Resolves with the log's lines once `done` accepts them (the file is read every 25 ms). */
function logOnce(file: string, done: (lines: string[]) => boolean): Promise<string[]> {
  const read = () => {
    try {
      return readFileSync(file, 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  return new Promise((resolve) => {
    const check = () => {
      const lines = read();
      if (!done(lines)) return false;
      clearInterval(timer);
      resolve(lines);
      return true;
    };
    const timer = setInterval(check, 25);
    check();
  });
}

test('SIGTERM to the bridge reaches its stdio upstream, and the bridge exits', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'omc-bridge-signal-'));
  const file = join(dir, 'upstream.log');
  const bridge = spawn(process.execPath, [BIN, 'bridge', '--stdio', '--command', `"${process.execPath}" "${UPSTREAM}" "${file}"`], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const exited = new Promise((resolve) => bridge.once('exit', resolve));
  let pid = 0;
  try {
    // Whether the bridge is still mounting the upstream or already serving, the signal must reach it.
    const started = await logOnce(file, (l) => l.some((x) => x.startsWith('pid ')));
    pid = Number(started.find((x) => x.startsWith('pid '))!.slice(4));
    bridge.kill('SIGTERM');
    await logOnce(file, (l) => l.includes('sigterm'));
    // Before the fix the bridge never exited on a signal in --stdio mode (it kept reading its stdin).
    await exited;
    expect(() => process.kill(pid, 0)).toThrow(); // the upstream is gone
  } finally {
    bridge.kill('SIGKILL');
    bridge.stdin.destroy();
    try {
      if (pid) process.kill(pid, 'SIGKILL'); // only if the test failed: never leave the upstream behind
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

test('terminateStdioServers sends SIGTERM to a running stdio server at once, without ending its stdin first', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'omc-bridge-signal-'));
  const file = join(dir, 'upstream.log');
  const { StdioTransport, terminateStdioServers } = await import('../../../src/client/stdio-transport');
  const transport = new StdioTransport({ command: process.execPath, args: [UPSTREAM, file], stderr: 'ignore' });
  try {
    await logOnce(file, (l) => l.some((x) => x.startsWith('pid ')));
    terminateStdioServers();
    await transport.exited;
    // Nothing ended its stdin: the signal alone stopped it (the polite close would log `eof` first).
    expect(await logOnce(file, (l) => l.includes('sigterm'))).not.toContain('eof');
  } finally {
    await transport.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
