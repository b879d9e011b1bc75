/**
 * fleet/ is what instances share and what streams across them: the stores (this file), the
 * notification bus and its relay, listen streams with their quotas, and subscriptions.
 *
 * The stores a fleet shares (`RedisModule` from `onemodelcontext/redis` provides them). Each one
 * left out stays per process; the app uses what is given: exactly-once records, single-use
 * tokens, the legacy event store (handed to the HTTP transport), the notification bus, and the
 * lease counter that makes the listen-stream and legacy-session quotas count across the fleet, and
 * the token buckets of the rate limiter, and the approval-page flows.
 */
import type { InjectionToken } from 'tsyringe';
import type { ApprovalStore } from '../../state/approval-store';
import type { EventStore } from '../../state/event-store';
import type { FlowStore } from '../../state/flow-store';
import type { LeaseCounter } from '../../state/lease-counter';
import type { SingleUseStore } from '../../state/single-use-store';
import type { TokenBucketStore } from '../../state/token-bucket';
import type { TaskStore } from '../../state/task-store';
import type { NotificationBus } from './notification-bus';

export interface SharedStores {
  readonly flowStore?: FlowStore;
  readonly singleUseStore?: SingleUseStore;
  readonly eventStore?: EventStore;
  readonly notificationBus?: NotificationBus;
  /** Fleet-wide quotas: listen streams (the server) and legacy sessions (the HTTP transport). */
  readonly leases?: LeaseCounter;
  /** Token buckets for the rate limiter (`RateLimit`), fleet-wide. */
  readonly tokenBuckets?: TokenBucketStore;
  /** Tasks (SEP-2663), so any instance can poll, answer or cancel a task another one created. */
  readonly taskStore?: TaskStore;
  /** Approval-page flows, so a page served by one instance and the call continuing on another meet. */
  readonly approvalStore?: ApprovalStore;
  /** Resolves once the stores answer; rejects saying why not (serveHttp waits for it before listening). */
  ready(): Promise<void>;
  /** Whether the stores are connected right now (the readiness route says not-ready otherwise). Cheap, synchronous. */
  reachable?(): boolean;
  /** Closes the connections (after the transports have drained). */
  close(): Promise<void>;
}

/**
 * The application's token bucket store (the shared one when a module provides it, else one in
 * memory): what `RateLimit` guards take from. Register your own under this token to replace it.
 */
export const TOKEN_BUCKETS: InjectionToken<TokenBucketStore> = Symbol.for('onemodelcontext:token-buckets');

export const SHARED_STORES: InjectionToken<SharedStores> = Symbol.for('onemodelcontext:shared-stores');
