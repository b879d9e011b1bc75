/** What the request handlers of one endpoint share. */
import type { Principal } from '../../context/principal';
import type { ServerEndpoint } from '../../server/server-endpoint';
import type { ServerLogger } from '../../server/core/server-logger';
import type { EventStore } from './event-store';
import type { HttpOptions } from './http-options';
import type { Inflight } from './inflight';
import type { SessionStore } from './session-store';

export interface EndpointContext {
  readonly server: ServerEndpoint;
  readonly options: Readonly<HttpOptions>;
  readonly sessions: SessionStore;
  readonly store: EventStore;
  readonly inflight: Inflight;
  /** Ends each open long-lived stream gracefully (listen streams send their final result). */
  readonly longLived: Set<() => void>;
  readonly logger: ServerLogger;
}

/** One request's identity and the headers every response to it carries (CORS). */
export interface Exchange {
  readonly principal?: Principal;
  /** The client's address as the deployment trusts it (clientAddressOf). */
  readonly clientAddress?: string;
  readonly responseHeaders: Record<string, string>;
}
