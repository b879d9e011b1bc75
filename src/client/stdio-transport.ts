/**
 * stdio transport: spawns the server, newline-delimited JSON on its stdin/stdout. stderr is passed
 * through (default) or collected. Close: end stdin, wait, SIGTERM, then SIGKILL (spec §5).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { JsonRpcMessage } from '../protocol/jsonrpc';
import { LineSplitter } from '../transports/line-splitter';
import { StreamTransport } from './stream-transport';
import type { StdioTarget } from './targets';

const MAX_FRAME = 64 * 1024 * 1024;

/** Every server process this process started and that still runs. */
const liveServers = new Set<ChildProcessWithoutNullStreams>();
let exitHookInstalled = false;

/**
 * SIGTERM to every stdio server this process started, without waiting (signal-first teardown).
 * For a process that was told to stop and may be killed outright soon after (the official v2
 * client SIGKILLs a server 1 s after SIGTERM): the polite close (end stdin, wait 2 s) would
 * outlive it and leave its servers orphaned.
 */
export function terminateStdioServers(): void {
  for (const child of liveServers) child.kill('SIGTERM');
}

export class StdioTransport extends StreamTransport {
  readonly kind = 'stdio' as const;
  private readonly child: ChildProcessWithoutNullStreams;
  /** Settles when the server process exits (or fails to start). */
  readonly exited: Promise<void>;
  private collected = '';

  constructor(private readonly target: StdioTarget) {
    super();
    this.child = spawn(target.command, target.args ?? [], {
      cwd: target.cwd,
      env: { ...process.env, ...target.env } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const splitter = new LineSplitter(MAX_FRAME, (line) => this.line(line), () => undefined);
    this.child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
    this.child.stdout.on('end', () => splitter.end());
    this.child.stderr.on('data', (chunk: Buffer) => {
      if (target.stderr === 'collect') this.collected += chunk.toString('utf8');
      else if (target.stderr !== 'ignore') process.stderr.write(chunk);
    });
    this.child.stdin.on('error', () => undefined);
    track(this.child);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.once('error', () => resolve());
    });
    void this.exited.then(() => {
      this.closed = true;
      this.failAll(`The server process exited${this.collected ? `; stderr: ${this.collected.slice(-500)}` : ''}.`);
    });
  }

  /** The server's stderr so far (when `stderr: 'collect'`). */
  get stderrText(): string {
    return this.collected;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  protected write(message: JsonRpcMessage): void {
    this.child.stdin.write(JSON.stringify(message) + '\n');
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const grace = this.target.shutdownGraceMs ?? 2000;
    this.child.stdin.end();
    if (await this.exitsWithin(grace)) return;
    this.child.kill('SIGTERM');
    if (await this.exitsWithin(grace)) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  private line(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return; // Not MCP (a stray log line on stdout): nothing to route.
    }
    this.receive(value);
  }

  private exitsWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/** Kept until the child exits; a process that exits with servers still running takes them down. */
function track(child: ChildProcessWithoutNullStreams): void {
  if (child.pid === undefined) return; // it never started
  liveServers.add(child);
  child.once('exit', () => liveServers.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', terminateStdioServers);
}
