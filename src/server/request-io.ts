/** What a transport hands the dispatcher for one request. The dispatcher knows nothing else of it. */
import type { ClientRequester } from '../context/legacy-port';
import type { Principal } from '../context/principal';
import type { JsonRpcNotification } from '../protocol/jsonrpc';

export interface RequestIO {
  /** Aborts when the client cancels (notifications/cancelled, a closed 2026 response stream) or on shutdown. */
  signal: AbortSignal;
  /** Delivers a notification related to this request (its SSE stream, or the stdio connection). */
  notify(message: JsonRpcNotification): void;
  principal?: Principal;
  /** Legacy only: a held connection that can carry server-to-client requests. */
  requester?: ClientRequester;
}
