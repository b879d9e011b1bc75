/**
 * A POSTed 2026-07-28 request: header ladder, dispatch, JSON or SSE reply. Closing the response
 * stream before the reply is cancellation: the handler's signal aborts and nothing more is written.
 */
import { replyHeaders, replyStatus } from './reply-status';
import { ProtocolError } from '../../errors/protocol-error';
import { httpStatusOfError } from '../../protocol/http-status';
import { failure, type JsonRpcNotification, type JsonRpcRequest } from '../../protocol/jsonrpc';
import type { EndpointContext, Exchange } from './endpoint-context';
import type { HeaderBag, ResponseSink } from './http-exchange';
import { checkModernHeaders } from './modern-headers';
import { ReplyStream } from './reply-stream';
import { sendJson } from './responses';
import { SSE_HEADERS, SseWriter } from './sse-writer';
import type { ListenStream, Reply } from '../../server/server-endpoint';
import type { RequestIO } from '../../server/request-io';
import type { Principal } from '../../context/principal';
import type { Abortable } from './inflight';

/** Not async: a reply the server gave synchronously is sent at once (no promise, no in-flight entry). */
export function modernRequest(
  ctx: EndpointContext,
  req: JsonRpcRequest,
  headers: HeaderBag,
  res: ResponseSink,
  ex: Exchange,
): Promise<void> | undefined {
  try {
    checkModernHeaders(req, headers, (tool) => ctx.server.toolHeaderParams(tool));
  } catch (e) {
    const err = e as ProtocolError;
    const status = httpStatusOfError(err.code, 'modern');
    sendJson(res, status, failure(req.id, err.code, err.message, err.data), ex.responseHeaders);
    return undefined;
  }

  const reply = new ReplyStream(res, { headers: ex.responseHeaders });
  const io = new ModernIO(reply, ex.principal);
  res.onGone(() => io.abort(new Error('The client closed the response stream')));
  const dispatched = ctx.server.dispatchModern(req, io);
  if (dispatched instanceof Promise) return awaitReply(ctx, dispatched, reply, io);
  if (dispatched.kind !== 'stream') return answer(ctx, dispatched, reply, io);
  listen(ctx, dispatched, res, ex);
  return undefined;
}

async function awaitReply(ctx: EndpointContext, dispatched: Promise<Reply>, reply: ReplyStream, io: ModernIO) {
  ctx.inflight.enter(io);
  let settled: Reply;
  try {
    settled = await dispatched;
  } finally {
    ctx.inflight.leave(io);
  }
  return answer(ctx, settled, reply, io);
}

function answer(ctx: EndpointContext, settled: Reply, reply: ReplyStream, io: ModernIO): Promise<void> | undefined {
  if (io.aborted) return undefined; // cancelled: not one more byte for it
  const challenge = replyHeaders(settled, ctx.server.settings.resourceServer);
  return reply.finish(settled.message, replyStatus(settled, 'modern'), challenge);
}

/**
 * The request's IO, and what shutdown aborts. One object per request: the AbortController is made
 * only when someone reads the signal or the request is aborted (most calls never look at it, and
 * it is one of the costlier allocations of a request).
 */
class ModernIO implements RequestIO, Abortable {
  readonly transport = 'http' as const;
  private controller?: AbortController;

  constructor(
    private readonly reply: ReplyStream,
    readonly principal: Principal | undefined,
  ) {}

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  get aborted(): boolean {
    return this.controller?.signal.aborted ?? false;
  }

  notify(n: JsonRpcNotification): void {
    if (!this.aborted) this.reply.push(n);
  }

  abort(reason?: unknown): void {
    (this.controller ??= new AbortController()).abort(reason);
  }
}

/** `subscriptions/listen`: an SSE stream that opens with the ack and ends with the final result. */
function listen(ctx: EndpointContext, sub: ListenStream, res: ResponseSink, ex: Exchange): void {
  let sse: SseWriter | undefined = new SseWriter(
    res.openStream(200, { ...SSE_HEADERS, ...ex.responseHeaders }),
    ctx.options.sseKeepAliveMs,
  );
  sse.event(sub.ack);
  const stop = (graceful: boolean, final = sub.close()) => {
    ctx.longLived.delete(closeGracefully);
    if (graceful) sse?.event(final);
    sse?.end();
    sse = undefined;
  };
  const closeGracefully = () => stop(true);
  ctx.longLived.add(closeGracefully);
  res.onGone(() => stop(false));
  // The server ended it (a fleet-wide quota, an unavailable store): its final message, then the end.
  sub.forward(
    (n) => sse?.event(n),
    (final) => stop(true, final),
  );
}
