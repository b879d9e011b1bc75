/** What a transport hands the dispatcher for one request. The dispatcher knows nothing else of it. */
import type { ClientRequester } from '../../context/legacy-port';
import type { Principal } from '../../context/principal';
import type { JsonRpcNotification } from '../../protocol/jsonrpc';

export interface RequestIO {
  /** Aborts when the client cancels (notifications/cancelled, a closed 2026 response stream) or on shutdown. */
  signal: AbortSignal;
  /** Delivers a notification related to this request (its SSE stream, or the stdio connection). */
  notify(message: JsonRpcNotification): void;
  principal?: Principal;
  /** The client's network address as the transport trusts it (HTTP: the socket's, or via trustedProxies). */
  clientAddress?: string;
  /** How the request arrived (telemetry's `network.transport`). */
  transport?: 'http' | 'stdio' | 'memory';
  /**
   * Legacy sessions: delivers a notification that may come after this request finished (2025-11-25
   * `notifications/elicitation/complete`): on the request's stream while it is open, then on the
   * session's own channel (the stdio connection, the HTTP session's standalone GET stream).
   */
  notifySession?(message: JsonRpcNotification): void;
  /** Legacy only: a held connection that can carry server-to-client requests. */
  requester?: ClientRequester;
}
