/**
 * NotificationBus on Redis pub/sub: one channel per key prefix (`<prefix>notifications`), published
 * on the main connection, heard on the connection's subscriber connection (a subscribed connection
 * can send nothing else). node-redis subscribes again after a reconnect; what was published while an
 * instance was cut off is lost (pub/sub keeps nothing): see docs in notes for the wiring's answer.
 */
import { deliver, isNotificationBusEvent, type NotificationBus, type NotificationBusEvent, type NotificationBusListener } from '../server/notification-bus';
import type { RedisConnection } from './connection';

export class RedisNotificationBus implements NotificationBus {
  private readonly listeners = new Set<NotificationBusListener>();
  private listening?: Promise<void>;
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

  private listen(): Promise<void> {
    this.listening ??= (async () => {
      const sub = await this.redis.subscriber();
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
