/**
 * One connection factory for every Redis store: `connectRedis({ url, keyPrefix, … })`. Commands time
 * out (`commandTimeoutMs`) instead of waiting for a Redis that is gone; the client reconnects with a
 * bounded backoff; connection errors go to `onError` (never an unhandled 'error' event); the
 * notification bus gets its own subscriber connection. Keys are prefixed here, by the stores, so a
 * key the stores write is `keyPrefix` + `kind:` + id and `SCAN MATCH keyPrefix*` finds them all.
 */
import { createHash } from 'node:crypto';
import { RedisUnavailableError } from './errors';
import { nodeRedis } from './node-redis';

export type RedisReply = string | number | null | RedisReply[];

export interface RedisConnectOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  url: string;
  /** Prepended to every key the stores write; default `omc:`. One prefix per application. */
  keyPrefix?: string;
  /** How long the first connection (and each reconnect attempt) may take; default 5000 ms. */
  connectTimeoutMs?: number;
  /** How long any one command may wait for its reply, queued or sent; default 2000 ms. */
  commandTimeoutMs?: number;
  /** Longest pause between reconnect attempts; default 2000 ms (50 ms doubling up to it). */
  maxReconnectDelayMs?: number;
  /** Connection errors while reconnecting; default: one warning per outage on stderr. */
  onError?: (error: RedisUnavailableError) => void;
}

interface RedisSettings {
  keyPrefix: string;
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  maxReconnectDelayMs: number;
}

export const REDIS_DEFAULTS: Readonly<RedisSettings> = Object.freeze({
  keyPrefix: 'omc:',
  connectTimeoutMs: 5_000,
  commandTimeoutMs: 2_000,
  maxReconnectDelayMs: 2_000,
});

/** The handle the stores share: prefixed keys, scripts, commands with clear errors. */
export class RedisConnection {
  private subscriberClient?: Promise<RedisClient>;
  private closed = false;

  constructor(
    readonly client: RedisClient,
    readonly address: string,
    readonly keyPrefix: string,
    readonly commandTimeoutMs: number,
    private readonly reportError: (error: unknown) => void,
  ) {}

  /** `keyPrefix` + `kind:` + id. */
  key(kind: string, id: string): string {
    return `${this.keyPrefix}${kind}:${id}`;
  }

  /** Sends one command; an unreachable Redis becomes a RedisUnavailableError. */
  async command<T extends RedisReply = RedisReply>(args: readonly string[]): Promise<T> {
    try {
      return await this.client.sendCommand<T>(args);
    } catch (error) {
      throw this.explain(error);
    }
  }

  /** Runs a Lua script by its SHA1, loading it on NOSCRIPT (a restarted Redis forgot it). */
  async script<T extends RedisReply = RedisReply>(
    script: LuaScript,
    keys: readonly string[],
    args: readonly string[],
  ): Promise<T> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.client.sendCommand<T>(['EVALSHA', script.sha1, ...tail]);
    } catch (error) {
      if (!(error instanceof nodeRedis().ErrorReply && error.message.startsWith('NOSCRIPT'))) throw this.explain(error);
    }
    return this.command<T>(['EVAL', script.source, ...tail]);
  }

  /** A second connection in subscribe mode (made once, on first use): pub/sub blocks a connection. */
  subscriber(): Promise<RedisClient> {
    this.subscriberClient ??= (async () => {
      const sub = this.client.duplicate();
      sub.on('error', this.reportError);
      await withTimeout(
        sub.connect(),
        this.client.options?.socket?.connectTimeout ?? REDIS_DEFAULTS.connectTimeoutMs,
        this.address,
      );
      return sub;
    })();
    return this.subscriberClient;
  }

  /** Closes both connections; pending commands are answered first. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const sub = await this.subscriberClient?.catch(() => undefined);
    await Promise.all([quit(this.client), sub ? quit(sub) : undefined]);
  }

  /** A Redis error reply (a script's error, a wrong type) passes through; a transport failure is explained. */
  explain(error: unknown): Error {
    if (error instanceof nodeRedis().ErrorReply) return error;
    if (error instanceof RedisUnavailableError) return error;
    return new RedisUnavailableError(this.address, reasonOf(error, this.commandTimeoutMs), { cause: error });
  }
}

export interface LuaScript {
  readonly source: string;
  readonly sha1: string;
}

export function luaScript(source: string): LuaScript {
  return Object.freeze({ source, sha1: createHash('sha1').update(source).digest('hex') });
}

/** Connects (or fails with a RedisUnavailableError within `connectTimeoutMs`). */
export async function connectRedis(options: RedisConnectOptions): Promise<RedisConnection> {
  const settings: RedisSettings = { ...REDIS_DEFAULTS, ...definedOnly(options) };
  const address = addressOf(options.url);
  const report = errorReporter(address, options.onError);
  const client = newClient(options.url, settings);
  client.on('error', report.error);
  client.on('ready', report.ready);
  try {
    await withTimeout(client.connect(), settings.connectTimeoutMs, address);
  } catch (error) {
    client.destroy();
    throw error instanceof RedisUnavailableError
      ? error
      : new RedisUnavailableError(address, reasonOf(error, settings.commandTimeoutMs), { cause: error });
  }
  return new RedisConnection(client, address, settings.keyPrefix, settings.commandTimeoutMs, report.error);
}

function newClient(url: string, settings: RedisSettings) {
  return nodeRedis().createClient({
    url,
    socket: {
      connectTimeout: settings.connectTimeoutMs,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 10), settings.maxReconnectDelayMs),
    },
    commandOptions: { timeout: settings.commandTimeoutMs },
  });
}

export type RedisClient = ReturnType<typeof newClient>;

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function addressOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '6379'}`;
  } catch {
    throw new TypeError(`connectRedis: url must be redis://host:port, got ${JSON.stringify(url)}`);
  }
}

function reasonOf(error: unknown, commandTimeoutMs: number): string {
  const { TimeoutError, ClientClosedError, ClientOfflineError, SocketClosedUnexpectedlyError } = nodeRedis();
  if (error instanceof TimeoutError) return `no reply within ${commandTimeoutMs} ms`;
  if (error instanceof ClientClosedError) return 'the connection is closed';
  if (error instanceof ClientOfflineError) return 'the client is offline';
  if (error instanceof SocketClosedUnexpectedlyError) return 'the connection was lost';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (error instanceof Error) return error.message.replace(/^Error: /, '') || error.name;
  return String(error);
}

/** One warning when an outage starts, one when it ends: a reconnect loop must not flood the log. */
function errorReporter(address: string, onError?: (error: RedisUnavailableError) => void) {
  let down = false;
  const defaultReport = (e: RedisUnavailableError): void => {
    if (!down) console.warn(`onemodelcontext/redis: ${e.message}; reconnecting`);
  };
  return {
    error: (error: unknown): void => {
      const explained =
        error instanceof RedisUnavailableError
          ? error
          : new RedisUnavailableError(address, reasonOf(error, 0), { cause: error });
      try {
        (onError ?? defaultReport)(explained);
      } catch {
        // A throwing handler must not turn into the unhandled error this listener exists to prevent.
      }
      down = true;
    },
    ready: (): void => {
      if (down && !onError) console.warn(`onemodelcontext/redis: Redis at ${address} is reachable again`);
      down = false;
    },
  };
}

async function withTimeout<T>(promise: Promise<T>, ms: number, address: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailableError(address, `no connection within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function quit(client: RedisClient): Promise<void> {
  try {
    if (client.isOpen) await client.close();
  } catch {
    client.destroy();
  }
}
