/**
 * `RedisModule.configure({ url })`: every shared store on one Redis, in one line of the module
 * list. The connection starts when the app is created; `serveHttp` waits until it answers (a
 * Redis that cannot be reached within `connectTimeoutMs` stops start-up, saying so). Later outages
 * fail closed: each store's command times out with a RedisUnavailableError and the round is
 * refused rather than run twice; the client reconnects by itself.
 */
import { IsInt, IsOptional, IsString, Matches, Min } from 'class-validator';
import type { InjectionToken } from 'tsyringe';
import type { ConfigModule } from '../config/modules';
import { validateOptions } from '../config/validate-options';
import type { NotificationBus } from '../server/fleet/notification-bus';
import { SHARED_STORES, type SharedStores } from '../server/fleet/shared-stores';
import { DEFAULT_FLOW_STORE_LIMITS } from '../state/memory-flow-store';
import { RedisApprovalStore } from './redis-approval-store';
import { connectRedis, REDIS_DEFAULTS, type RedisConnection } from './connection';
import { RedisEventStore } from './redis-event-store';
import { RedisFlowStore } from './redis-flow-store';
import { RedisLeaseCounter } from './redis-lease-counter';
import { RedisNotificationBus } from './redis-notification-bus';
import { RedisTaskStore } from './redis-task-store';
import { RedisSingleUseStore } from './redis-single-use-store';
import { RedisTokenBucket } from './redis-token-bucket';

export class RedisModuleOptions {
  /** `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
  @IsString() @Matches(/^rediss?:\/\/\S+$/, { message: 'url must be a redis:// or rediss:// URL' }) url!: string;
  /** Prepended to every key and channel; one prefix per application sharing a Redis. */
  @IsString() @Matches(/^\S{1,64}$/) keyPrefix = REDIS_DEFAULTS.keyPrefix;
  @IsInt() @Min(100) connectTimeoutMs = REDIS_DEFAULTS.connectTimeoutMs;
  @IsInt() @Min(10) commandTimeoutMs = REDIS_DEFAULTS.commandTimeoutMs;
  @IsInt() @Min(10) maxReconnectDelayMs = REDIS_DEFAULTS.maxReconnectDelayMs;
  /** Legacy resumability: events kept per SSE stream. */
  @IsOptional() @IsInt() @Min(1) maxEventsPerStream?: number;
  /**
   * The flow store's shares, fleet-wide (every instance on this Redis and prefix counts against the
   * same ones; the server's options of the same names bound the in-memory store): records in all,
   * unfinished flows of one principal, bytes in all and of one principal.
   */
  @IsInt() @Min(1) maxTrackedFlows = DEFAULT_FLOW_STORE_LIMITS.maxFlows;
  @IsInt() @Min(1) maxTrackedFlowsPerPrincipal = DEFAULT_FLOW_STORE_LIMITS.maxFlowsPerPrincipal;
  @IsInt() @Min(65_536) maxFlowStoreBytes = DEFAULT_FLOW_STORE_LIMITS.maxBytes;
  @IsInt() @Min(65_536) maxFlowStoreBytesPerPrincipal = DEFAULT_FLOW_STORE_LIMITS.maxBytesPerPrincipal;
}

export const REDIS_OPTIONS: InjectionToken<RedisModuleOptions> = Symbol.for('onemodelcontext:redis-options');

export class RedisModule {
  static configure(options: Partial<RedisModuleOptions> & { url: string }): ConfigModule<RedisModuleOptions> {
    const validated = validateOptions(RedisModuleOptions, options, { label: 'RedisModule' });
    return Object.freeze({
      token: REDIS_OPTIONS,
      options: validated,
      register: (container) => {
        container.register(REDIS_OPTIONS, { useValue: validated });
        container.register(SHARED_STORES, { useValue: redisStores(validated) });
      },
    } satisfies ConfigModule<RedisModuleOptions>);
  }
}

/** The stores, usable at once: each call waits for the connection (or fails as the connection did). */
export function redisStores(options: Readonly<RedisModuleOptions>): SharedStores {
  const connection = connectRedis(options);
  // Each store waits for the connection; a failed one is reported by ready() and by each call, never unhandled.
  const whenConnected = <T>(make: (c: RedisConnection) => T): Promise<T> => {
    const made = connection.then(make);
    made.catch(() => undefined);
    return made;
  };
  const bus = whenConnected((c) => new RedisNotificationBus(c));
  let connected: RedisConnection | undefined;
  connection.then((c) => (connected = c)).catch(() => undefined);
  return Object.freeze({
    flowStore: deferred(
      whenConnected(
        (c) =>
          new RedisFlowStore(c, {
            maxFlows: options.maxTrackedFlows,
            maxFlowsPerPrincipal: options.maxTrackedFlowsPerPrincipal,
            maxBytes: options.maxFlowStoreBytes,
            maxBytesPerPrincipal: options.maxFlowStoreBytesPerPrincipal,
          }),
      ),
    ),
    singleUseStore: deferred(whenConnected((c) => new RedisSingleUseStore(c))),
    eventStore: deferred(
      whenConnected((c) => new RedisEventStore(c, { maxEventsPerStream: options.maxEventsPerStream })),
    ),
    notificationBus: deferredBus(bus),
    leases: deferred(whenConnected((c) => new RedisLeaseCounter(c))),
    tokenBuckets: deferred(whenConnected((c) => new RedisTokenBucket(c))),
    taskStore: deferred(whenConnected((c) => new RedisTaskStore(c))),
    approvalStore: deferred(whenConnected((c) => new RedisApprovalStore(c))),
    ready: async () => {
      await connection;
    },
    reachable: () => connected?.client.isReady ?? false,
    close: async () => {
      const open: RedisConnection | undefined = await connection.catch(() => undefined);
      await open?.close();
    },
  });
}

/** The bus, usable at once; `onReconnect` registers as soon as the connection exists. */
function deferredBus(real: Promise<RedisNotificationBus>): NotificationBus {
  return {
    publish: async (event) => (await real).publish(event),
    subscribe: async (listener) => (await real).subscribe(listener),
    changes: async () => (await real).changes(),
    onReconnect: (listener) => {
      let stop: (() => void) | undefined;
      let stopped = false;
      real.then((b) => (stopped ? undefined : (stop = b.onReconnect(listener)))).catch(() => undefined);
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}

/**
 * An object whose methods wait for the real one: the stores exist from the app's creation, the
 * connection a moment later. Only methods are forwarded (every store interface is methods only).
 */
function deferred<T extends object>(real: Promise<T>): T {
  return new Proxy({} as T, {
    get: (_target, name) => {
      // Not a thenable (an `await` of the store must not wait on it), and no symbols (inspection).
      if (name === 'then' || typeof name === 'symbol') return undefined;
      return async (...args: unknown[]) => {
        const store = (await real) as Record<string, (...a: unknown[]) => unknown>;
        return store[name]!.apply(store, args);
      };
    },
  });
}
