/**
 * The IO of one HTTP request answered on one reply stream. Most calls never read the signal, so
 * the AbortController is made only when someone reads it or the request is aborted (it is one of
 * the costlier allocations of a request). Sessionless requests use this as it is; a legacy session
 * request extends it (session-request-io.ts).
 */
import type { Principal } from '../../context/principal';
import type { JsonRpcNotification } from '../../protocol/jsonrpc';
import type { RequestIO } from '../../server/request/request-io';
import type { ResponseSink } from './http-exchange';
import type { InflightEntry } from './inflight';
import type { ReplyStream } from './reply-stream';

const CLIENT_LEFT = 'The client closed the response stream';

export class ReplyIO implements RequestIO, InflightEntry {
  readonly transport = 'http' as const;
  inflightSlot = -1;
  protected controller?: AbortController;

  /**
   * `watch`: the response whose departure aborts the request, heard only from the first read of the
   * signal (a handler that never reads it needs no `close` listener per request; what it writes
   * after the client left is dropped by the reply stream, which checks the response itself).
   */
  constructor(
    protected readonly reply: ReplyStream,
    readonly principal: Principal | undefined,
    readonly clientAddress?: string,
    private readonly watch?: ResponseSink,
  ) {}

  get signal(): AbortSignal {
    return this.made().signal;
  }

  get aborted(): boolean {
    return this.controller?.signal.aborted ?? false;
  }

  /** A cancelled request sends not one more byte. */
  notify(n: JsonRpcNotification): void {
    if (!this.aborted) this.reply.push(n);
  }

  /** Makes the controller if nobody read the signal yet: a handler that reads it later sees it aborted. */
  abort(reason?: unknown): void {
    this.made().abort(reason);
  }

  protected made(): AbortController {
    if (this.controller) return this.controller;
    const controller = (this.controller = new AbortController());
    const res = this.watch;
    if (res) {
      if (res.gone) controller.abort(new Error(CLIENT_LEFT));
      else res.onGone(() => controller.abort(new Error(CLIENT_LEFT)));
    }
    return controller;
  }
}
