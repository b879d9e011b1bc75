/**
 * Carries registry changes (`list_changed`, `resources/updated`) between the instances of a fleet:
 * each instance publishes what changed in its own registry, and every instance's listeners hear
 * it. An event names the instance that published it, so that instance can skip its own (its
 * registry already told its local listeners). The in-process bus is the one-instance case and the
 * reference for shared ones (e.g. Redis pub/sub in `onemodelcontext/redis`).
 */
import type { RegistryEvent } from '../../registry/registry';

/**
 * A run-time change to what the server offers, replicated by name: every instance registered the
 * same named handler at start-up (`app.registerChange`) and applies it with these arguments.
 */
export interface FleetChangeEvent {
  type: 'change';
  /** Unique per change: an instance applies each one once (live, replayed, or both). */
  changeId: string;
  name: string;
  args: unknown;
}

export type NotificationBusEvent = (RegistryEvent | FleetChangeEvent) & {
  /** The publishing instance's id. */
  instanceId: string;
};

export type NotificationBusListener = (event: NotificationBusEvent) => void;

export interface NotificationBus {
  /** Sends the event to every subscriber (of every instance, for a shared bus). */
  publish(event: NotificationBusEvent): Promise<void>;
  /** Hears every event published from now on; resolves (once listening) to its unsubscribe. */
  subscribe(listener: NotificationBusListener): Promise<() => Promise<void>>;
  /** A shared bus that can lose events while cut off calls `listener` each time it is back. */
  onReconnect?(listener: () => void): () => void;
  /**
   * The run-time changes published so far, oldest first (a shared bus keeps them in the store), so an
   * instance that starts later, or was cut off, replays them. A bus without it keeps none.
   */
  changes?(): Promise<NotificationBusEvent[]>;
}

/** Delivers to this process's subscribers; a throwing listener does not stop the others. */
export class InProcessNotificationBus implements NotificationBus {
  private readonly listeners = new Set<NotificationBusListener>();
  private readonly kept: NotificationBusEvent[] = [];

  async publish(event: NotificationBusEvent): Promise<void> {
    if (event.type === 'change') this.kept.push({ ...event });
    deliver(this.listeners, event);
  }

  async changes(): Promise<NotificationBusEvent[]> {
    return this.kept.map((e) => ({ ...e }));
  }

  async subscribe(listener: NotificationBusListener): Promise<() => Promise<void>> {
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const entry: NotificationBusListener = (event) => listener(event);
    this.listeners.add(entry);
    return async () => {
      this.listeners.delete(entry);
    };
  }
}

/** Calls each listener with its own copy of the event; one that throws is skipped. */
export function deliver(listeners: Iterable<NotificationBusListener>, event: NotificationBusEvent): void {
  for (const listener of listeners) {
    try {
      listener({ ...event });
    } catch {
      // A failing listener (a closed stream) must not stop the others.
    }
  }
}

/** Whether a value is a bus event (what a shared bus receives is untrusted text). */
export function isNotificationBusEvent(value: unknown): value is NotificationBusEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  if (typeof e.instanceId !== 'string') return false;
  if (e.type === 'listChanged') return e.list === 'tools' || e.list === 'prompts' || e.list === 'resources';
  if (e.type === 'resourceUpdated') return typeof e.uri === 'string';
  if (e.type === 'change') return typeof e.changeId === 'string' && typeof e.name === 'string';
  return false;
}
