/**
 * What transports and adapters see of the server: dispatch a message with its transport facts,
 * hear the changes a legacy session follows, and the few settings a transport needs. They depend
 * on this interface, never on the application that builds it.
 */
import type { ApprovalPages } from '../context/approval-pages';
import type { Authenticate } from './core/server-options';
import type { ResourceServer } from './core/resource-server';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/jsonrpc';
import type { HeaderParam } from '../protocol/mcp-header';
import type { LegacySession } from './legacy/legacy-session';
import type { PendingAskBudget } from './legacy/pending-asks';
import type { RequestIO } from './request/request-io';
import type { ServerLogger } from './core/server-logger';
import type { EventStore } from '../state/event-store';
import type { LeaseCounter } from '../state/lease-counter';

/** A JSON-RPC response. The HTTP transport maps its status from the error code (protocol/http-status.ts). */
export interface Reply {
  readonly kind: 'reply';
  readonly message: JsonRpcResponse;
  /**
   * `JSON.stringify(message)`, when the server made it from parts it had as text already (issue 34:
   * replies/reply-text.ts); a transport sends it instead of stringifying the message.
   */
  readonly json?: string;
  /**
   * The one error whose status the code does not fix: a 2026-07-28 request missing an envelope
   * field is -32602 (otherwise in band) answered 400 over HTTP.
   */
  readonly missingEnvelope?: true;
}

/** `subscriptions/listen`: a stream that opens with `ack` and ends with `close()`'s final result. */
export interface ListenStream {
  readonly kind: 'stream';
  /** The stream's first message. */
  readonly ack: JsonRpcNotification;
  /**
   * Starts forwarding the matching change notifications to `send` (once, after writing `ack`).
   * The server may end the stream itself (a fleet-wide quota refused it, its shared store failed):
   * it then calls `end` with the final message, the slot already freed; the transport writes it
   * and closes the stream (a later `close()` is harmless, and its result is not to be sent).
   */
  forward(send: (n: JsonRpcNotification) => void, end?: (final: JsonRpcResponse) => void): void;
  /** Stops forwarding and frees the stream's slot; returns the final result to send if still open. */
  close(): JsonRpcResponse;
}

/** The configuration a transport reads: who is calling, where to log, per-session limits. */
export interface EndpointSettings {
  readonly logger: ServerLogger;
  readonly authenticate?: Authenticate;
  /**
   * The OAuth protected resource (`OAuthResourceModule`): over HTTP it verifies bearer tokens in
   * place of `authenticate` and serves the metadata document.
   */
  readonly resourceServer?: ResourceServer;
  /** The approval pages (`asks` fallback `approvalPage`): the HTTP transport serves them under its path. */
  readonly approvalPages?: ApprovalPages;
  /** Server-to-client requests one legacy session may have pending. */
  readonly maxPendingAsksPerSession: number;
  /** The budget of legacy server-to-client requests waiting for replies: each session takes a share. */
  readonly pendingAsks: PendingAskBudget;
  /** No `requestStateKey` was set: sealed state does not survive a restart nor cross instances. */
  readonly ephemeralStateKey: boolean;
  /** No shared `flowStore` was set: exactly-once records live in this process. */
  readonly processLocalFlowStore: boolean;
  /**
   * Hex fingerprint of the requestState minting key: equal on every instance sharing the key (readiness
   * route). A method: an ephemeral key is drawn on its first use, which this may be.
   */
  stateKeyFingerprint(): string;
  /** The legacy event store a fleet shares (the transport keeps its own in memory when absent). */
  readonly eventStore?: EventStore;
  /** The lease counter a fleet shares: legacy sessions count against the fleet-wide quotas when present. */
  readonly leases?: LeaseCounter;
  /** Counts a legacy session evicted to make room in a full pool (telemetry). */
  sessionEvicted?(pool: 'anonymous' | 'principal' | 'server'): void;
  /** Resolves once the shared stores answer (at once without them); serveHttp waits for it before listening. */
  ready(): Promise<void>;
  /** Whether the shared stores are connected now (always without them): the readiness route reports it. */
  storesReachable(): boolean;
}

export interface ServerEndpoint {
  readonly settings: EndpointSettings;
  /**
   * A 2026-07-28 request. `subscriptions/listen` is answered at once with its stream (so nothing
   * falls between the request and the ack); every other method, and a refused listen, with a reply.
   */
  dispatchModern(req: JsonRpcRequest, io: RequestIO): ListenStream | Reply | Promise<Reply>;
  /** A legacy request on its session (stdio, an HTTP session, or a throwaway one for stateless HTTP). */
  dispatchLegacy(req: JsonRpcRequest, session: LegacySession, io: RequestIO): Reply | Promise<Reply>;
  /** A client notification on a legacy session (cancellation is the transport's business). */
  legacyNotification(n: JsonRpcNotification, session: LegacySession): void;
  /**
   * The notifications an initialized legacy session hears: list changes, and updates of the
   * resources it subscribed to. Returns the function that stops them.
   */
  followChanges(session: LegacySession, send: (n: JsonRpcNotification) => void): () => void;
  /** The arguments a tool mirrors in `Mcp-Param-*` headers (`x-mcp-header`); none for an unknown tool. */
  toolHeaderParams(name: string): readonly HeaderParam[];
}

/** What the transports' entry points take: an application, or anything else that has an endpoint. */
export interface EndpointHost {
  readonly endpoint: ServerEndpoint;
}
