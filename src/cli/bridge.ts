/**
 * `onemodelcontext bridge`: runs the bridge program that ships beside the CLI (bridge/serve-bridge),
 * loaded by path at run time — the CLI layer imports nothing of the library, it starts it, as `dev`
 * starts an app's entry. Runs until SIGINT/SIGTERM (HTTP) or the end of stdin (--stdio).
 */
import { join } from 'node:path';
import type { BridgeCommand } from './args';
import { CliError, type Output } from './output';

interface BridgeProgram {
  runBridge(c: {
    command?: string;
    url?: string;
    port?: number;
    stdio: boolean;
    headers?: string[];
    upstreamVersion?: string;
    maxListItems?: number;
  }): Promise<{ url?: string; closed: Promise<void>; close(): Promise<void> }>;
  terminateStdioServers(): void;
}

export async function runBridgeCommand(command: BridgeCommand, out: Output): Promise<number> {
  // Loaded by path on first use (the layer rule: the CLI imports nothing of ours).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const program = require(join(__dirname, '..', 'bridge', 'serve-bridge')) as BridgeProgram;
  // Signals are heard from the start: one that arrives while the upstream is still being mounted must
  // take the upstream down too (by default it would kill only us, and orphan a stubborn upstream).
  let running: Awaited<ReturnType<BridgeProgram['runBridge']>> | undefined;
  let stopping = false;
  // Told to stop: the upstream process gets SIGTERM now, not after the polite close's 2 s wait on its
  // stdin, which whoever signalled us may not give us (the official v2 client SIGKILLs after 1 s).
  const stop = () => {
    stopping = true;
    program.terminateStdioServers();
    if (running) void running.close();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    try {
      running = await program.runBridge({
        command: command.upstreamCommand,
        url: command.url,
        port: command.port,
        stdio: command.stdio,
        headers: command.headers,
        upstreamVersion: command.upstreamVersion,
        maxListItems: command.maxListItems,
      });
    } catch (e) {
      if (stopping) return 0;
      throw new CliError(`the bridge could not start: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (stopping) {
      program.terminateStdioServers(); // one started after the signal
      await running.close();
      return 0;
    }
    const upstream = command.url ?? command.upstreamCommand;
    out.info(
      running.url
        ? `bridge listening on ${running.url} (2026-07-28 and 2025-11-25 clients) in front of ${upstream}`
        : `bridge serving on stdio in front of ${upstream}`,
    );
    await running.closed;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return 0;
}
