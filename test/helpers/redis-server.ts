/**
 * A private redis-server for one test file: a free loopback port, nothing saved to disk. `stop()`
 * and `start()` again (same port, empty data) serve the fault tests. Installed by
 * scripts/install-debian.sh (which .ci/run calls).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Starts it again on the same port (after `stop()`); resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL) and waits for the process to exit. Idempotent. */
  stop(): Promise<void>;
  /** Stops it for good and removes its directory (afterAll). */
  dispose(): Promise<void>;
}

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

export async function startRedisServer(): Promise<RedisServer> {
  if (!redisServerInstalled()) throw new Error('redis-server is not installed: run scripts/install-debian.sh');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'omc-redis-'));
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      if (child) return;
      child = await launch(port, dir);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (running) await terminate(running);
    },
    async dispose() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--loglevel',
    'warning',
  ];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start on port ${port}: ${output}`)), 10_000);
    const fail = (e: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    child.once('exit', (code) => fail(new Error(`redis-server exited (${code}): ${output}`)));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    // With --loglevel warning nothing announces readiness: poll the port instead.
    const poll = (): void => {
      void canConnect(port).then((ok) => {
        if (ok) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          resolve(child);
        } else if (child.exitCode === null) setTimeout(poll, 20);
      });
    };
    poll();
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
