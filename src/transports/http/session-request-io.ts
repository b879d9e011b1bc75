/**
 * The IO of one request on a legacy HTTP session, as one object per request. Most calls never read
 * the signal, ask the client or notify, so the AbortController, its SSE-polling closer and the
 * requester are made only when someone does (they were most of a session call's allocations).
 */
import type { ClientRequester } from '../../context/legacy-port';
import type { Principal } from '../../context/principal';
import type { JsonRpcNotification, RequestId } from '../../protocol/jsonrpc';
import type { RequestIO } from '../../server/request-io';
import type { HttpSession } from './http-session';
import type { Abortable } from './inflight';
import type { ReplyStream } from './reply-stream';
import { registerStreamCloser, unregisterStreamCloser } from './sse-polling';

export class SessionRequestIO implements RequestIO, Abortable {
  readonly transport = 'http' as const;
  private controller?: AbortController;
  private ask?: ClientRequester;
  /** Until the request's reply is sent: session notifications go on its stream meanwhile. */
  private running = true;

  constructor(
    private readonly session: HttpSession,
    private readonly reply: ReplyStream,
    private readonly requestId: RequestId,
    private readonly streamId: string,
    readonly principal: Principal | undefined,
  ) {}

  /** Made on first read, with the closer that lets the handler end its SSE stream early (SSE polling). */
  get signal(): AbortSignal {
    return this.made().signal;
  }

  get aborted(): boolean {
    return this.controller?.signal.aborted ?? false;
  }

  get requester(): ClientRequester {
    return (this.ask ??= this.session.outbound.requester((r) => this.reply.push(r)));
  }

  notify(n: JsonRpcNotification): void {
    if (!this.aborted) this.reply.push(n);
  }

  notifySession(n: JsonRpcNotification): void {
    const session = this.session;
    if (session.isClosed) return;
    if (this.running && !this.aborted) this.reply.push(n);
    else session.getStream?.push(n);
  }

  /** Made even if nobody read the signal yet: a handler that reads it later sees it aborted. */
  abort(reason?: unknown): void {
    this.made().abort(reason);
  }

  private made(): AbortController {
    if (this.controller) return this.controller;
    const controller = (this.controller = new AbortController());
    const reply = this.reply;
    registerStreamCloser(controller.signal, () => reply.detach());
    return controller;
  }

  /**
   * The request is over: the session forgets it (a finished stream is resumed from the event store
   * alone) and its closer goes (the controller itself is garbage with this object).
   */
  release(): void {
    this.running = false;
    if (this.controller) unregisterStreamCloser(this.controller.signal);
    const session = this.session;
    session.inflight.delete(this.requestId);
    session.streams.delete(this.streamId);
    session.touch();
  }
}
