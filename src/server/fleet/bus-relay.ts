/**
 * Joins this instance's registry to a fleet's notification bus: changes made here are published,
 * and changes published by other instances are told to this instance's listeners (legacy sessions
 * and listen streams). Run-time changes to the lists travel as named changes (`FleetChangeEvent`):
 * each instance applies them with its own handler, once each, in the order the bus keeps them; an
 * instance that starts later, or comes back after a cut, replays the ones it has not applied.
 */
import { randomUUID } from 'node:crypto';
import type { Registry } from '../../registry/registry';
import type { FleetChangeEvent, NotificationBus } from './notification-bus';
import type { ServerLogger } from '../core/server-logger';

export interface BusRelay {
  /** Resolves once this instance hears the bus and has replayed the changes made before it. */
  readonly listening: Promise<void>;
  /** Publishes a named change to the fleet, then applies it here (a failed publish changes nothing). */
  publishChange(name: string, args: unknown): Promise<void>;
  stop(): Promise<void>;
}

/** Applies a named run-time change on this instance. */
export type ChangeApplier = (change: FleetChangeEvent) => void;

export function relayThroughBus(
  registry: Registry,
  bus: NotificationBus,
  logger: ServerLogger,
  applyChange: ChangeApplier = () => undefined,
): BusRelay {
  const instanceId = randomUUID();
  const applied = new Set<string>();
  // Live changes heard while the log is being replayed wait, so they apply after the older ones.
  let held: FleetChangeEvent[] | undefined = [];
  const apply = (change: FleetChangeEvent): void => {
    if (applied.has(change.changeId)) return;
    applied.add(change.changeId);
    try {
      applyChange(change);
    } catch (e) {
      logger.warn('notification bus: a run-time change failed on this instance', {
        change: change.name,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  };
  const replay = async (): Promise<void> => {
    held ??= [];
    try {
      for (const event of (await bus.changes?.()) ?? []) if (event.type === 'change') apply(event);
    } finally {
      const waiting = held;
      held = undefined;
      waiting.forEach(apply);
    }
  };
  const stopPublishing = registry.onLocalChange((event) => {
    bus.publish({ ...event, instanceId }).catch((e: unknown) => {
      logger.warn('notification bus: a change was not published to the other instances', {
        event: event.type,
        error: e instanceof Error ? e.message : String(e),
      });
    });
  });
  const subscribed = bus.subscribe((event) => {
    if (event.type === 'change') {
      if (held) held.push(event);
      else apply(event);
      return;
    }
    if (event.instanceId === instanceId) return;
    registry.relay(
      event.type === 'listChanged'
        ? { type: 'listChanged', list: event.list }
        : { type: 'resourceUpdated', uri: event.uri },
    );
  });
  // Events published while this instance was cut off are lost: assume every list may have changed.
  // Changes missed meanwhile are replayed from the log.
  const stopResync = bus.onReconnect?.(() => {
    for (const list of ['tools', 'prompts', 'resources'] as const) registry.relay({ type: 'listChanged', list });
    replay().catch((e: unknown) => {
      logger.warn('notification bus: the run-time changes could not be replayed after a reconnect', {
        error: e instanceof Error ? e.message : String(e),
      });
    });
  });
  return {
    listening: subscribed.then(replay),
    publishChange: async (name, args) => {
      const change: FleetChangeEvent = { type: 'change', changeId: randomUUID(), name, args };
      await bus.publish({ ...change, instanceId });
      // Applied here as soon as it is published (the echo is skipped): the caller's next request sees it.
      apply(change);
    },
    stop: async () => {
      stopPublishing();
      stopResync?.();
      const unsubscribe = await subscribed.catch(() => undefined);
      await unsubscribe?.();
    },
  };
}
