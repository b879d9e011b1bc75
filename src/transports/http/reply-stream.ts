/**
 * The answer to one POSTed request: plain JSON when the reply comes first, Server-Sent Events as
 * soon as something must be sent before it (progress, logs, legacy server-to-client requests).
 * Legacy session streams store each event for `Last-Event-ID` resumption and survive the HTTP
 * response closing; the others simply stop writing when the client is gone.
 */
import type { JsonRpcMessage } from '../../protocol/jsonrpc';
import type { EventStore } from './event-store';
import { SSE_HEADERS, SseWriter } from './sse-writer';
import type { ResponseSink } from './http-exchange';

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Type': 'application/json' });

export interface Resumable {
  store: EventStore;
  /** 2025-11-25: open with a priming event (an id and empty data) carrying this `retry:`. */
  primeRetryMs?: number;
  /**
   * Names the stream when it starts and registers it, so the session can find it for `Last-Event-ID`
   * resumption. A plain JSON reply has no events to resume: it is never named nor registered.
   */
  open(stream: ReplyStream): string;
}

export interface ReplyStreamOptions {
  resumable?: Resumable;
  /** Headers every response of this exchange carries (session id, CORS). */
  headers?: Record<string, string>;
  keepAliveMs?: number;
}

export class ReplyStream {
  private sse?: SseWriter;
  private sink?: ResponseSink;
  private streaming = false;
  private finished = false;
  /** Made on the first `enqueue`: a plain JSON reply never queues (nor allocates the promise). */
  private queue?: Promise<void>;
  /** Whether the sink's departure is watched yet: from the first streamed byte. */
  private watching = false;
  /** The resumable stream's id, from its first event (Resumable.open). */
  private resumableId?: string;

  constructor(
    res: ResponseSink,
    private readonly options: ReplyStreamOptions = {},
  ) {
    this.sink = res;
    // A plain JSON reply reads `res.gone` when it sends, resumable or not: only a stream needs to hear
    // the client leave, and a `close` listener per request keeps the whole exchange reachable longer.
  }

  get isFinished(): boolean {
    return this.finished;
  }

  /** The id its events are stored under, once a resumable stream started; undefined before and otherwise. */
  get streamId(): string | undefined {
    return this.resumableId;
  }

  /** Whether the current HTTP response is gone (and nothing is attached to replace it). */
  get detached(): boolean {
    return this.sink === undefined;
  }

  /** Starts the SSE response now (a GET stream has nothing to say yet). */
  open(): Promise<void> {
    return this.enqueue(async () => {
      if (!this.streaming) await this.startStream();
    });
  }

  /** A notification or server-to-client request before the reply: switches to SSE. */
  push(message: JsonRpcMessage): void {
    if (this.finished) return;
    this.enqueue(async () => {
      if (!this.streaming) await this.startStream();
      await this.emit(message);
    });
  }

  /** The final reply; ends the exchange. `json`, when the server made it, is `JSON.stringify(message)`. */
  finish(
    message: JsonRpcMessage,
    status: number,
    extraHeaders?: Record<string, string>,
    json?: string,
  ): Promise<void> | undefined {
    if (this.finished) return this.queue;
    this.finished = true;
    if (!this.streaming && this.queue === undefined) {
      // The common case, nothing was streamed or queued: one JSON response, no queue hop, no promise.
      const res = this.sink;
      if (res && !res.gone) res.send(status, this.jsonHeaders(extraHeaders), json ?? JSON.stringify(message));
      return undefined;
    }
    return this.enqueue(async () => {
      if (!this.streaming) {
        const res = this.sink;
        if (res && !res.gone) res.send(status, this.jsonHeaders(extraHeaders), json ?? JSON.stringify(message));
        return;
      }
      await this.emit(message, json);
      this.sse?.end();
      this.sse = undefined;
    });
  }

  /** Ends the stream without a reply (a cancelled request, shutdown). */
  end(): Promise<void> {
    this.finished = true;
    return this.enqueue(async () => {
      if (this.sse) this.sse.end();
      else if (this.sink && !this.sink.gone && !this.streaming) this.sink.send(204, { ...this.options.headers });
      this.sse = undefined;
    });
  }

  /**
   * The server closes the HTTP stream but keeps the request running (SSE polling): later events
   * are stored and a client reconnecting with `Last-Event-ID` gets them. Only for resumable streams.
   */
  detach(): Promise<boolean> {
    if (!this.options.resumable || this.finished) return Promise.resolve(false);
    return this.enqueue(async () => {
      if (!this.streaming) await this.startStream();
      this.sse?.end();
      this.sse = undefined;
      this.sink = undefined;
    }).then(() => true);
  }

  /** A reconnecting client: replay what it missed (already read from the store), then continue live. */
  resume(res: ResponseSink, missed: Array<{ id: string; message: JsonRpcMessage | null }>): Promise<void> {
    return this.enqueue(async () => {
      this.sse?.end();
      this.sink = res;
      this.sse = new SseWriter(
        res.openStream(200, { ...SSE_HEADERS, ...this.options.headers }),
        this.options.keepAliveMs,
      );
      this.streaming = true;
      res.onGone(() => this.dropSink(res));
      this.watching = true;
      for (const e of missed) if (e.message) this.sse.event(e.message, e.id);
      if (this.finished) {
        this.sse.end();
        this.sse = undefined;
      }
    });
  }

  private async startStream(): Promise<void> {
    this.streaming = true;
    const res = this.sink;
    if (res && !this.watching) this.watch(res);
    if (res && !res.gone)
      this.sse = new SseWriter(
        res.openStream(200, { ...SSE_HEADERS, ...this.options.headers }),
        this.options.keepAliveMs,
      );
    const r = this.options.resumable;
    if (!r) return;
    const streamId = (this.resumableId = r.open(this));
    if (r.primeRetryMs !== undefined) {
      const id = await r.store.append(streamId, null);
      this.sse?.event(null, id, r.primeRetryMs);
    }
  }

  private async emit(message: JsonRpcMessage, json?: string): Promise<void> {
    const streamId = this.resumableId;
    const id = streamId === undefined ? undefined : await this.options.resumable!.store.append(streamId, message);
    if (this.sink?.gone) return this.dropSink(this.sink);
    this.sse?.event(message, id, undefined, json);
  }

  private dropSink(res: ResponseSink): void {
    if (this.sink !== res) return;
    this.sse?.end();
    this.sse = undefined;
    this.sink = undefined;
  }

  private jsonHeaders(reply?: Record<string, string>): Record<string, string> {
    const extra = this.options.headers;
    const base = extra && Object.keys(extra).length ? { ...JSON_HEADERS, ...extra } : JSON_HEADERS;
    return reply ? { ...base, ...reply } : base;
  }

  private watch(res: ResponseSink): void {
    this.watching = true;
    res.onGone(() => this.dropSink(res));
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    this.queue = (this.queue ?? Promise.resolve()).then(task).catch(() => undefined);
    return this.queue;
  }
}
