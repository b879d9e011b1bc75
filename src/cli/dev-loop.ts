/**
 * The rebuild-restart cycle behind `onemodelcontext dev`, with its effects injected: build (tsc,
 * which keeps decorator metadata, unlike tsx or esbuild), stop the old server, start the new one.
 * Changes that arrive during a build queue exactly one more build; a failed build keeps the running
 * server and waits for the next change.
 */

export interface BuildResult {
  ok: boolean;
  /** The compiler's output, shown when the build fails. */
  output: string;
}

export interface RunningServer {
  stop(): Promise<void>;
  /** Ends it at once (a second Ctrl+C while stop() waits). */
  kill?(): void;
}

export interface DevEffects {
  build(): Promise<BuildResult>;
  start(): RunningServer;
  report(line: string): void;
}

export class DevLoop {
  private server: RunningServer | undefined;
  private building: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** Completed build cycles, successful or not. */
  cycles = 0;

  constructor(private readonly effects: DevEffects) {}

  /** Starts a cycle now, or marks one to run right after the current build. Resolves when the cycles settle. */
  changed(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.building) {
      this.again = true;
      return this.building;
    }
    this.building = this.cycle().finally(() => (this.building = undefined));
    return this.building;
  }

  /** Kills the running server without waiting for it to drain. */
  kill(): void {
    this.server?.kill?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.building;
    await this.server?.stop();
    this.server = undefined;
  }

  private async cycle(): Promise<void> {
    do {
      this.again = false;
      this.effects.report('building…');
      const result = await this.effects.build();
      this.cycles++;
      if (this.stopped) return;
      if (!result.ok) {
        this.effects.report(
          `build failed${this.server ? '; the previous build keeps running' : ''}:\n${result.output.trimEnd()}`,
        );
        continue;
      }
      if (this.server) {
        this.effects.report('restarting…');
        await this.server.stop();
      }
      this.server = this.effects.start();
    } while (this.again && !this.stopped);
  }
}
