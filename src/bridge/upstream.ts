/**
 * The connection to one mounted server: a `ContextClient` that declares every ask capability (so
 * servers that register asking tools only for such clients show them), answers asks it cannot
 * attribute to a call with a clear refusal, and is restarted with back-off when a stdio child dies
 * or an HTTP upstream stops answering. While it is down its items answer `upstream_unavailable`.
 */
import { ContextClient } from '../client/context-client';
import type { ContextClientInit } from '../client/options';
import type { ClientTarget } from '../client/targets';
import { StdioTransport } from '../client/stdio-transport';
import type { Subscription } from '../client/subscription';
import { ProtocolError } from '../errors/protocol-error';
import { ErrorCode } from '../protocol/error-codes';
import type { ChangeNotification } from '../protocol/listen';
import { bridgeError } from './bridge-errors';
import type { MountOptions } from './mount-options';

/** How long a mount waits for the upstream to acknowledge its change stream before listing anyway. */
const ACK_WAIT_MS = 5_000;

export interface UpstreamHooks {
  /** Connected (first time or after a restart): resync the lists. */
  up(client: ContextClient): Promise<void>;
  /** A list or resource changed upstream. */
  changed(n: ChangeNotification): void;
}

const unattributed = (what: string) => () => {
  throw new ProtocolError(
    ErrorCode.InvalidRequest,
    `The bridge has no caller to relay this ${what} to: it came outside any call (or while several calls were in flight on a connection that names no related request).`,
  );
};

export class Upstream {
  private client?: ContextClient;
  private down = 'not started';
  private attempt = 0;
  private closed = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly options: Readonly<MountOptions>,
    private readonly hooks: UpstreamHooks,
  ) {}

  /** Connects once; a failure here is reported to the caller of `mount` (start-up fails clearly). */
  async start(): Promise<void> {
    await this.connect();
  }

  /** The live client, or the clear error every mounted item answers while the upstream is down. */
  live(): ContextClient {
    if (this.client) return this.client;
    throw bridgeError(
      'upstream_unavailable',
      `The mounted server "${this.options.namespace}" is unavailable: ${this.down}.`,
      { upstream: this.options.namespace },
    );
  }

  /** A call failed in transport: the upstream is treated as gone (HTTP has no exit to watch). */
  failed(client: ContextClient, error: unknown): void {
    if (this.client !== client) return;
    this.lost(`its connection failed (${error instanceof Error ? error.message : String(error)})`);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const o = this.options;
    const target: ClientTarget =
      o.command !== undefined
        ? { command: o.command, args: o.args, env: o.env, cwd: o.cwd, stderr: 'collect' }
        : { url: o.url!, headers: o.headers, ...(o.auth ? { auth: o.auth } : {}) };
    const init: ContextClientInit = {
      clientInfo: { name: `onemodelcontext-bridge:${o.namespace}` },
      protocolVersion: o.protocolVersion,
      requestTimeoutMs: o.requestTimeoutMs,
      tasks: false,
      elicitation: unattributed('elicitation'),
      urlElicitation: unattributed('elicitation'),
      sampling: unattributed('sampling request'),
      samplingTools: true,
      roots: unattributed('roots request'),
      maxInputRounds: 1000,
    };
    const client = await ContextClient.connect(target, init);
    if (this.closed) return void (await client.close());
    this.client = client;
    this.attempt = 0;
    this.down = '';
    const transport = client.transport;
    if (transport instanceof StdioTransport) {
      void transport.exited.then(() => {
        const tail = transport.stderrText.trim().split('\n').slice(-3).join(' | ');
        if (this.client === client) this.lost(`its process exited${tail ? ` (stderr: ${tail})` : ''}`);
      });
    }
    // Listen before listing: a change made between the two is not lost.
    const subscription = await this.listen(client);
    await this.hooks.up(client);
    if (subscription) void this.follow(client, subscription);
  }

  /** list_changed and resource updates; undefined (reported) when the upstream offers none. */
  private async listen(client: ContextClient): Promise<Subscription | undefined> {
    const caps = client.server.capabilities ?? {};
    try {
      const subscription = await client.listen({
        toolsListChanged: !!caps.tools,
        promptsListChanged: !!caps.prompts,
        resourcesListChanged: !!caps.resources,
      });
      // A 2026 stream is live once acknowledged; one never acknowledged does not hold the mount up.
      if (client.era === 'modern') {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ACK_WAIT_MS)));
        await Promise.race([subscription.acknowledged, late]).finally(() => clearTimeout(timer));
      }
      return subscription;
    } catch (e) {
      this.report(`no change notifications from the upstream: ${e instanceof Error ? e.message : e}`);
      return undefined;
    }
  }

  /** Changes, for as long as this client lives. */
  private async follow(client: ContextClient, subscription: Subscription): Promise<void> {
    try {
      for await (const n of subscription) {
        if (this.client !== client) break;
        this.hooks.changed(n);
      }
    } catch (e) {
      // The connection ended: `lost` (exit or failed call) takes it from here; anything else is reported.
      if (this.client === client) this.report(`change notifications stopped: ${e instanceof Error ? e.message : e}`);
    }
  }

  private lost(reason: string): void {
    const client = this.client;
    this.client = undefined;
    this.down = reason;
    void client?.close().catch(() => undefined);
    if (this.closed) return;
    this.report(`mounted server "${this.options.namespace}" is down: ${reason}`);
    this.schedule();
  }

  private schedule(): void {
    const delay = Math.min(this.options.restartMaxMs, this.options.restartMinMs * 2 ** this.attempt++);
    this.down = `${this.down.replace(/; reconnecting in \d+ ms$/, '')}; reconnecting in ${delay} ms`;
    this.timer = setTimeout(() => {
      this.connect().then(
        () => this.report(`mounted server "${this.options.namespace}" is back`),
        (e: unknown) => {
          this.down = `it could not be restarted (${e instanceof Error ? e.message : String(e)})`;
          this.report(`mounted server "${this.options.namespace}": ${this.down}`);
          if (!this.closed) this.schedule();
        },
      );
    }, delay);
    this.timer.unref();
  }

  private report(message: string): void {
    if (this.options.onEvent) this.options.onEvent(message);
    else process.stderr.write(`[onemodelcontext bridge] ${message}\n`);
  }
}
