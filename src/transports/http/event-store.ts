/**
 * The in-memory event store for legacy resumability (the interface is in state/event-store.ts):
 * bounded, oldest events dropped first.
 */
import type { JsonRpcMessage } from '../../protocol/jsonrpc';
import type { EventStore, StoredEvent } from '../../state/event-store';

export type { EventStore, StoredEvent } from '../../state/event-store';

/** Keeps the newest `maxEvents` events in memory (oldest dropped first). */
export class InMemoryEventStore implements EventStore {
  private seq = 0;
  private readonly events = new Map<string, { streamId: string; message: JsonRpcMessage | null }>();
  private readonly byStream = new Map<string, string[]>();

  constructor(private readonly maxEvents = 10_000) {}

  append(streamId: string, message: JsonRpcMessage | null): string {
    const id = `${streamId}_${++this.seq}`;
    this.events.set(id, { streamId, message });
    const list = this.byStream.get(streamId) ?? [];
    list.push(id);
    this.byStream.set(streamId, list);
    while (this.events.size > this.maxEvents) this.evictOldest();
    return id;
  }

  eventsAfter(lastEventId: string): { streamId: string; events: StoredEvent[] } | undefined {
    const found = this.events.get(lastEventId);
    if (!found) return undefined;
    const ids = this.byStream.get(found.streamId) ?? [];
    const after = ids.slice(ids.indexOf(lastEventId) + 1);
    return {
      streamId: found.streamId,
      events: after.map((id) => ({ id, message: this.events.get(id)?.message ?? null })),
    };
  }

  dropStream(streamId: string): void {
    for (const id of this.byStream.get(streamId) ?? []) this.events.delete(id);
    this.byStream.delete(streamId);
  }

  get size(): number {
    return this.events.size;
  }

  private evictOldest(): void {
    const oldest = this.events.keys().next().value as string;
    const streamId = this.events.get(oldest)?.streamId;
    this.events.delete(oldest);
    if (streamId === undefined) return;
    const list = this.byStream.get(streamId);
    list?.shift();
    if (list && list.length === 0) this.byStream.delete(streamId);
  }
}
