/**
 * NotificationBus on Redis pub/sub: one channel per key prefix (`<prefix>notifications`), published
 * on the main connection, heard on the connection's subscriber connection (a subscribed connection
 * can send nothing else). node-redis subscribes again after a reconnect; what was published while an
 * instance was cut off is lost (pub/sub keeps nothing), so `onReconnect` tells the wiring when to
 * assume everything may have changed (e.g. send list_changed for every list to local listeners).
 */
import {
  deliver,
  isNotificationBusEvent,
  type NotificationBus,
  type NotificationBusEvent,
  type NotificationBusListener,
} from '../server/fleet/notification-bus';
import type { RedisConnection } from './connection';

export class RedisNotificationBus implements NotificationBus {
  private readonly listeners = new Set<NotificationBusListener>();
  private readonly reconnectListeners = new Set<() => void>();
  private listening?: Promise<void>;
  private hooked = false;
  readonly channel: string;
  /** The run-time changes, oldest first, for instances that start later (`changes()`). */
  readonly changeLog: string;

  constructor(
    private readonly redis: RedisConnection,
    /** How many run-time changes the log keeps (the oldest go first). */
    private readonly maxChanges = 10_000,
  ) {
    this.channel = `${redis.keyPrefix}notifications`;
    this.changeLog = `${redis.keyPrefix}changes`;
  }

  async publish(event: NotificationBusEvent): Promise<void> {
    const text = JSON.stringify(event);
    // Logged before it is published: an instance that hears it and one that starts later agree.
    if (event.type === 'change') {
      await this.redis.command(['RPUSH', this.changeLog, text]);
      await this.redis.command(['LTRIM', this.changeLog, String(-this.maxChanges), '-1']);
    }
    await this.redis.command(['PUBLISH', this.channel, text]);
  }

  async changes(): Promise<NotificationBusEvent[]> {
    const items = (await this.redis.command(['LRANGE', this.changeLog, '0', '-1'])) as unknown;
    if (!Array.isArray(items)) return [];
    const out: NotificationBusEvent[] = [];
    for (const item of items) {
      try {
        const event: unknown = JSON.parse(String(item));
        if (isNotificationBusEvent(event) && event.type === 'change') out.push(event);
      } catch {
        // A line that is not an event (written by something else) is skipped.
      }
    }
    return out;
  }

  async subscribe(listener: NotificationBusListener): Promise<() => Promise<void>> {
    const entry: NotificationBusListener = (event) => listener(event);
    this.listeners.add(entry);
    try {
      await this.listen();
    } catch (error) {
      this.listeners.delete(entry);
      throw this.redis.explain(error);
    }
    return async () => {
      if (!this.listeners.delete(entry) || this.listeners.size > 0) return;
      const stopping = this.listening;
      this.listening = undefined;
      if (stopping) await this.stop();
    };
  }

  /** Called each time the subscriber connection is back after a loss (events in between are lost). */
  onReconnect(listener: () => void): () => void {
    const entry = (): void => listener();
    this.reconnectListeners.add(entry);
    return () => {
      this.reconnectListeners.delete(entry);
    };
  }

  private listen(): Promise<void> {
    this.listening ??= (async () => {
      const sub = await this.redis.subscriber();
      if (!this.hooked) {
        this.hooked = true;
        // Registered after the first connect: every later 'ready' is a reconnect.
        sub.on('ready', () => {
          for (const listener of this.reconnectListeners) {
            try {
              listener();
            } catch {
              // One failing hook must not keep the others from resyncing.
            }
          }
        });
      }
      await sub.subscribe(this.channel, (message: string) => this.receive(message));
    })().catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  private async stop(): Promise<void> {
    try {
      const sub = await this.redis.subscriber();
      await sub.unsubscribe(this.channel);
    } catch {
      // Redis is gone: there is nothing left to unsubscribe from.
    }
  }

  private receive(message: string): void {
    let event: unknown;
    try {
      event = JSON.parse(message);
    } catch {
      return;
    }
    if (isNotificationBusEvent(event)) deliver([...this.listeners], event);
  }
}
