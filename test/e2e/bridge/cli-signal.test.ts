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

test('SIGTERM to the bridge reaches its stdio upstream before the end of its stdin', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'omc-bridge-signal-'));
  const file = join(dir, 'upstream.log');
  const bridge = spawn(process.execPath, [BIN, 'bridge', '--stdio', '--command', `"${process.execPath}" "${UPSTREAM}" "${file}"`], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const exited = new Promise((resolve) => bridge.once('exit', resolve));
  try {
    const started = await logOnce(file, (l) => l.some((x) => x.startsWith('pid ')));
    const pid = Number(started.find((x) => x.startsWith('pid '))!.slice(4));
    bridge.kill('SIGTERM');
    const lines = await logOnce(file, (l) => l.includes('sigterm'));
    // Before the fix: `eof`, then `sigterm` only 2 s later — after the v2 client's SIGKILL of the bridge.
    expect(lines.filter((x) => x === 'eof' || x === 'sigterm')[0]).toBe('sigterm');
    await exited;
    expect(() => process.kill(pid, 0)).toThrow(); // the upstream is gone
  } finally {
    bridge.kill('SIGKILL');
    bridge.stdin.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});
