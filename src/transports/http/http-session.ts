/**
 * One legacy Streamable HTTP session: the dispatcher's LegacySession plus what HTTP adds —
 * server-to-client requests in flight, requests the client may cancel, the standalone GET
 * stream and the resumable streams of its POSTs.
 */
import type { RequestId } from '../../protocol/jsonrpc';
import { LegacySession } from '../../server/legacy/legacy-session';
import type { SessionAsks } from '../../server/legacy/pending-asks';
import type { ServerEndpoint } from '../../server/server-endpoint';
import { OutboundRequests } from '../outbound-requests';
import type { EventStore } from './event-store';
import type { Abortable } from './inflight';
import type { ReplyStream, Resumable } from './reply-stream';

export class HttpSession {
  readonly legacy: LegacySession;
  readonly outbound: OutboundRequests;
  /** Requests the client may cancel (notifications/cancelled), by id. */
  readonly inflight = new Map<RequestId, Abortable>();
  /** Resumable streams by stream id (live POST streams and the GET stream). */
  readonly streams = new Map<string, ReplyStream>();
  /** The standalone GET stream while a client holds it. */
  getStream?: ReplyStream;
  readonly createdAt = Date.now();
  lastSeen = this.createdAt;
  private streamCount = 0;
  private posts?: Resumable;
  private stopRegistryEvents?: () => void;
  private closed = false;

  constructor(
    readonly id: string,
    readonly principalId: string | undefined,
    private readonly store: EventStore,
    /** Its share of the server's pending-ask budget (none: only the count is unbounded too). */
    asks?: SessionAsks,
  ) {
    this.legacy = new LegacySession(id, principalId);
    this.outbound = new OutboundRequests('s', asks);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** In use: a request in flight (its asks with it) or the GET stream open; never evicted. */
  get busy(): boolean {
    return this.inflight.size > 0 || (this.getStream !== undefined && !this.getStream.detached);
  }

  /** Idle: nothing in flight and no open stream. */
  idleSince(now: number): number {
    return this.busy ? 0 : now - this.lastSeen;
  }

  touch(): void {
    this.lastSeen = Date.now();
  }

  newStreamId(kind: 'post' | 'get'): string {
    return `${this.id}.${kind}${++this.streamCount}`;
  }

  /**
   * How its streams are stored and found again. A stream is named and registered when it starts, so
   * a call answered with plain JSON costs neither: one object serves all of the session's POSTs.
   * 2025-11-25 streams open with a priming event carrying `sseRetryMs`.
   */
  resumable(kind: 'post' | 'get', sseRetryMs: number): Resumable {
    if (kind === 'post' && this.posts) return this.posts;
    const made: Resumable = {
      store: this.store,
      // The revision is fixed at initialize, before any stream: the shared object never goes stale.
      primeRetryMs: this.legacy.protocolVersion === '2025-11-25' ? sseRetryMs : undefined,
      open: (stream) => {
        const id = this.newStreamId(kind);
        this.streams.set(id, stream);
        return id;
      },
    };
    if (kind === 'post') this.posts = made;
    return made;
  }

  /** Whether a stream id (from the event store) belongs to this session. */
  owns(streamId: string): boolean {
    return streamId.startsWith(`${this.id}.`);
  }

  /** After notifications/initialized: list changes and subscribed resource updates go to the GET stream. */
  followChanges(server: ServerEndpoint): void {
    if (this.stopRegistryEvents || this.closed) return;
    this.stopRegistryEvents = server.followChanges(this.legacy, (n) => this.getStream?.push(n));
  }

  /** Terminates: in-flight requests aborted, pending asks failed, streams ended, events forgotten. */
  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.stopRegistryEvents?.();
    for (const c of this.inflight.values()) c.abort(new Error(reason));
    this.outbound.rejectAll(new Error(reason));
    for (const [streamId, s] of this.streams) {
      void s.end();
      void this.store.dropStream?.(streamId);
    }
    this.streams.clear();
    this.getStream = undefined;
  }
}
