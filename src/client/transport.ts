/** What ContextClient needs from a wire: request/response, notifications, and inbound server messages. */
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../protocol/jsonrpc';

export interface TransportRequestOptions {
  signal?: AbortSignal;
  /** Notifications that belong to this request (its SSE stream, its progress token, its subscription). */
  onNotification?: (notification: JsonRpcNotification) => void;
  /** HTTP only: request-metadata headers. Stream transports ignore them. */
  headers?: Record<string, string>;
}

export interface TransportReply {
  response: JsonRpcResponse;
  /** HTTP status the reply came with (undefined on streams). */
  httpStatus?: number;
  /** HTTP: the request carried this legacy session id and the server answered 404 (the session is gone). */
  lostSession?: string;
}

/** Messages the server starts: legacy server-to-client requests and unsolicited notifications. */
export interface InboundSink {
  /** `related`: the id of our request whose response stream carried this one (HTTP), when known. */
  request(message: JsonRpcRequest, related?: RequestId): Promise<JsonRpcResponse>;
  notification(message: JsonRpcNotification): void;
}

export interface ClientTransport {
  readonly kind: 'http' | 'stdio' | 'memory';
  start(sink: InboundSink): Promise<void>;
  /** Rejects with the signal's reason on abort; resolves with the JSON-RPC response otherwise. */
  request(message: JsonRpcRequest, options: TransportRequestOptions): Promise<TransportReply>;
  notify(message: JsonRpcNotification, headers?: Record<string, string>): Promise<void>;
  /** A legacy session began (HTTP: version header on every request, the GET stream). */
  legacySessionStarted?(protocolVersion: string): void;
  /**
   * HTTP: forgets a legacy session the server lost, so the next `initialize` starts a new one.
   * False when the transport already holds another session (a recovery is done or under way).
   */
  forgetSession?(sessionId: string): boolean;
  /** After `notifications/initialized`: HTTP opens the standalone GET stream. */
  followServerStream?(): void;
  close(): Promise<void>;
}
