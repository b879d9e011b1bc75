/**
 * The stores a fleet shares (`RedisModule` from `onemodelcontext/redis` provides them). Each one
 * left out stays per process; the app uses what is given: exactly-once records, single-use
 * tokens, the legacy event store (handed to the HTTP transport), and the notification bus.
 */
import type { InjectionToken } from 'tsyringe';
import type { EventStore } from '../state/event-store';
import type { FlowStore } from '../state/flow-store';
import type { SingleUseStore } from '../state/single-use-store';
import type { NotificationBus } from './notification-bus';

export interface SharedStores {
  readonly flowStore?: FlowStore;
  readonly singleUseStore?: SingleUseStore;
  readonly eventStore?: EventStore;
  readonly notificationBus?: NotificationBus;
  /** Resolves once the stores answer; rejects saying why not (serveHttp waits for it before listening). */
  ready(): Promise<void>;
  /** Closes the connections (after the transports have drained). */
  close(): Promise<void>;
}

export const SHARED_STORES: InjectionToken<SharedStores> = Symbol.for('onemodelcontext:shared-stores');
