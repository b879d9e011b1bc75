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

  constructor(private readonly redis: RedisConnection) {
    this.channel = `${redis.keyPrefix}notifications`;
  }

  async publish(event: NotificationBusEvent): Promise<void> {
    await this.redis.command(['PUBLISH', this.channel, JSON.stringify(event)]);
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
