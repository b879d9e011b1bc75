/**
 * The IO of one request on a legacy HTTP session, as one object per request. Most calls never read
 * the signal, ask the client or notify, so the AbortController, its SSE-polling closer and the
 * requester are made only when someone does (they were most of a session call's allocations).
 */
import type { ClientRequester } from '../../context/legacy-port';
import type { Principal } from '../../context/principal';
import type { JsonRpcNotification, RequestId } from '../../protocol/jsonrpc';
import type { HttpSession } from './http-session';
import { ReplyIO } from './reply-io';
import type { ReplyStream } from './reply-stream';
import { registerStreamCloser, unregisterStreamCloser } from './sse-polling';

export class SessionRequestIO extends ReplyIO {
  private ask?: ClientRequester;
  /** Until the request's reply is sent: session notifications go on its stream meanwhile. */
  private running = true;

  constructor(
    private readonly session: HttpSession,
    reply: ReplyStream,
    private readonly requestId: RequestId,
    principal: Principal | undefined,
    clientAddress?: string,
  ) {
    super(reply, principal, clientAddress);
  }

  get requester(): ClientRequester {
    return (this.ask ??= this.session.outbound.requester((r) => this.reply.push(r)));
  }

  notifySession(n: JsonRpcNotification): void {
    const session = this.session;
    if (session.isClosed) return;
    if (this.running && !this.aborted) this.reply.push(n);
    else session.getStream?.push(n);
  }

  /** The controller comes with the closer that lets the handler end its SSE stream early (SSE polling). */
  protected override made(): AbortController {
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
    // Only its own entry: a synchronous call never made one, and a later request may use the id.
    if (session.inflight.get(this.requestId) === this) session.inflight.delete(this.requestId);
    const streamId = this.reply.streamId; // only a reply that streamed was registered
    if (streamId !== undefined) session.streams.delete(streamId);
    session.touch();
  }
}
