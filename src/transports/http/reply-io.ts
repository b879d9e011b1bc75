/**
 * The IO of one HTTP request answered on one reply stream. Most calls never read the signal, so
 * the AbortController is made only when someone reads it or the request is aborted (it is one of
 * the costlier allocations of a request). Sessionless requests use this as it is; a legacy session
 * request extends it (session-request-io.ts).
 */
import type { Principal } from '../../context/principal';
import type { JsonRpcNotification } from '../../protocol/jsonrpc';
import type { RequestIO } from '../../server/request/request-io';
import type { Abortable } from './inflight';
import type { ReplyStream } from './reply-stream';

export class ReplyIO implements RequestIO, Abortable {
  readonly transport = 'http' as const;
  protected controller?: AbortController;

  constructor(
    protected readonly reply: ReplyStream,
    readonly principal: Principal | undefined,
    readonly clientAddress?: string,
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
    return (this.controller ??= new AbortController());
  }
}
