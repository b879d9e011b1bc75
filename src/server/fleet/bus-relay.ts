/**
 * Joins this instance's registry to a fleet's notification bus: changes made here are published,
 * and changes published by other instances are told to this instance's listeners (legacy sessions
 * and listen streams). The lists themselves are the app's: a tool added on one instance is added to
 * the others by the app's own means (shared configuration); the bus carries the notification.
 */
import { randomUUID } from 'node:crypto';
import type { Registry } from '../../registry/registry';
import type { NotificationBus } from './notification-bus';
import type { ServerLogger } from '../core/server-logger';

export interface BusRelay {
  /** Resolves once this instance hears the bus. */
  readonly listening: Promise<void>;
  stop(): Promise<void>;
}

export function relayThroughBus(registry: Registry, bus: NotificationBus, logger: ServerLogger): BusRelay {
  const instanceId = randomUUID();
  const stopPublishing = registry.onLocalChange((event) => {
    bus.publish({ ...event, instanceId }).catch((e: unknown) => {
      logger.warn('notification bus: a change was not published to the other instances', {
        event: event.type,
        error: e instanceof Error ? e.message : String(e),
      });
    });
  });
  const subscribed = bus.subscribe((event) => {
    if (event.instanceId === instanceId) return;
    registry.relay(
      event.type === 'listChanged'
        ? { type: 'listChanged', list: event.list }
        : { type: 'resourceUpdated', uri: event.uri },
    );
  });
  // Events published while this instance was cut off are lost: assume every list may have changed.
  const stopResync = bus.onReconnect?.(() => {
    for (const list of ['tools', 'prompts', 'resources'] as const) registry.relay({ type: 'listChanged', list });
  });
  return {
    listening: subscribed.then(() => undefined),
    stop: async () => {
      stopPublishing();
      stopResync?.();
      const unsubscribe = await subscribed.catch(() => undefined);
      await unsubscribe?.();
    },
  };
}
