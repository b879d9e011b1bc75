/**
 * A POSTed 2026-07-28 request: header ladder, dispatch, JSON or SSE reply. Closing the response
 * stream before the reply is cancellation: the handler's signal aborts and nothing more is written.
 */
import { replyHeaders, replyStatus } from './reply-status';
import { ProtocolError } from '../../errors/protocol-error';
import { httpStatusOfError } from '../../protocol/http-status';
import { failure, type JsonRpcRequest } from '../../protocol/jsonrpc';
import type { EndpointContext, Exchange } from './endpoint-context';
import type { HeaderBag, ResponseSink } from './http-exchange';
import { checkModernHeaders } from './modern-headers';
import { ReplyIO } from './reply-io';
import { ReplyStream } from './reply-stream';
import { sendJson } from './responses';
import { SSE_HEADERS, SseWriter } from './sse-writer';
import type { ListenStream, Reply } from '../../server/server-endpoint';

/** Not async: a reply the server gave synchronously is sent at once (no promise, no in-flight entry). */
export function modernRequest(
  ctx: EndpointContext,
  req: JsonRpcRequest,
  headers: HeaderBag,
  res: ResponseSink,
  ex: Exchange,
): Promise<void> | undefined {
  try {
    checkModernHeaders(req, headers, ctx.server);
  } catch (e) {
    const err = e as ProtocolError;
    const status = httpStatusOfError(err.code, 'modern');
    sendJson(res, status, failure(req.id, err.code, err.message, err.data), ex.responseHeaders);
    return undefined;
  }

  const reply = new ReplyStream(res, { headers: ex.responseHeaders });
  const io = new ReplyIO(reply, ex.principal, ex.clientAddress, res);
  const dispatched = ctx.server.dispatchModern(req, io);
  if (dispatched instanceof Promise) return awaitReply(ctx, dispatched, reply, io);
  if (dispatched.kind !== 'stream') return answer(ctx, dispatched, reply, io);
  listen(ctx, dispatched, res, ex);
  return undefined;
}

/** One `then`, not an async frame: the request counts as in flight until its reply settles. */
function awaitReply(ctx: EndpointContext, dispatched: Promise<Reply>, reply: ReplyStream, io: ReplyIO) {
  ctx.inflight.enter(io);
  return dispatched.then(
    (settled) => {
      ctx.inflight.leave(io);
      return answer(ctx, settled, reply, io);
    },
    (e: unknown) => {
      ctx.inflight.leave(io);
      throw e;
    },
  );
}

function answer(ctx: EndpointContext, settled: Reply, reply: ReplyStream, io: ReplyIO): Promise<void> | undefined {
  if (io.aborted) return undefined; // cancelled: not one more byte for it
  const challenge = replyHeaders(settled, ctx.server.settings.resourceServer);
  return reply.finish(settled.message, replyStatus(settled, 'modern'), challenge, settled.json);
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
