/**
 * Legacy resumability (2025-xx): every SSE event of a session stream is stored under an id so a
 * client can reconnect with `Last-Event-ID` and receive what it missed — of that stream only. The
 * in-memory store is the transport's default; a fleet shares one (Redis) so ids stay unique.
 */
import type { JsonRpcMessage } from '../protocol/jsonrpc';

export interface StoredEvent {
  id: string;
  /** null for a priming event (id and empty data). */
  message: JsonRpcMessage | null;
}

export interface EventStore {
  /** Stores one event of a stream and returns its id (unique across all streams). */
  append(streamId: string, message: JsonRpcMessage | null): string | Promise<string>;
  /** The stream an event id belongs to and the events stored after it; undefined when unknown or evicted. */
  eventsAfter(
    lastEventId: string,
  ):
    | { streamId: string; events: StoredEvent[] }
    | undefined
    | Promise<{ streamId: string; events: StoredEvent[] } | undefined>;
  /** Forgets a stream (its session ended). */
  dropStream?(streamId: string): void | Promise<void>;
}

