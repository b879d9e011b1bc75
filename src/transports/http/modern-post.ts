/**
 * A POSTed 2026-07-28 request: header ladder, dispatch, JSON or SSE reply. Closing the response
 * stream before the reply is cancellation: the handler's signal aborts and nothing more is written.
 */
import { ProtocolError } from '../../errors/protocol-error';
import { ErrorCode } from '../../protocol/error-codes';
import { httpStatusOfError } from '../../protocol/http-status';
import { failure, type JsonRpcNotification, type JsonRpcRequest } from '../../protocol/jsonrpc';
import { checkEnvelope } from '../../protocol/modern-envelope';
import type { EndpointContext, Exchange } from './endpoint-context';
import type { HeaderBag, ResponseSink } from './http-exchange';
import { checkModernHeaders } from './modern-headers';
import { ReplyStream } from './reply-stream';
import { sendError, sendJson } from './responses';
import { SSE_HEADERS, SseWriter } from './sse-writer';
import { thrownDetail } from '../../server/server-logger';

export async function modernRequest(ctx: EndpointContext, req: JsonRpcRequest, headers: HeaderBag, res: ResponseSink, ex: Exchange): Promise<void> {
  try {
    checkModernHeaders(req, headers, ctx.app.registry);
  } catch (e) {
    const err = e as ProtocolError;
    return sendJson(res, httpStatusOfError(err.code, 'modern'), failure(req.id, err.code, err.message, err.data), ex.responseHeaders);
  }
  if (req.method === 'subscriptions/listen') return listen(ctx, req, res, ex);

  // The AbortController is made only when someone reads the signal or the client leaves:
  // most calls never look at it, and it is one of the costlier allocations of a request.
  let controller: AbortController | undefined;
  const cancel = (reason: unknown) => (controller ??= new AbortController()).abort(reason);
  const reply = new ReplyStream(res, { headers: ex.responseHeaders });
  res.onGone(() => cancel(new Error('The client closed the response stream')));
  const io = {
    get signal() {
      return (controller ??= new AbortController()).signal;
    },
    notify: (n: JsonRpcNotification) => {
      if (!controller?.signal.aborted) reply.push(n);
    },
    principal: ex.principal,
  };
  const answer = await ctx.inflight.track(ctx.app.server.handleModern(req, io), { abort: cancel });
  if (controller?.signal.aborted) return; // cancelled: not one more byte for it
  await reply.finish(answer.message, answer.status);
}

/** `subscriptions/listen`: an SSE stream that opens with the ack and ends with the final result. */
function listen(ctx: EndpointContext, req: JsonRpcRequest, res: ResponseSink, ex: Exchange): void {
  // A missing envelope field is -32602, whose status is otherwise 200: over HTTP this one is 400.
  const envelope = checkEnvelope(req.params);
  if (envelope.kind === 'missing') return sendError(res, 400, req.id, ErrorCode.InvalidParams, envelope.message, ex.responseHeaders);
  let sse: SseWriter | undefined;
  let subscription;
  try {
    subscription = ctx.app.server.openListen(req, (n) => sse?.event(n), ex.principal?.id);
  } catch (e) {
    if (!(e instanceof ProtocolError)) ctx.logger.error('internal error in subscriptions/listen', thrownDetail(e));
    const err = e instanceof ProtocolError ? e : ProtocolError.internal();
    return sendJson(res, httpStatusOfError(err.code, 'modern'), failure(req.id, err.code, err.message, err.data), ex.responseHeaders);
  }
  const sub = subscription;
  sse = new SseWriter(res.openStream(200, { ...SSE_HEADERS, ...ex.responseHeaders }), ctx.options.sseKeepAliveMs);
  sse.event(sub.ack);
  const stop = (graceful: boolean) => {
    ctx.longLived.delete(closeGracefully);
    const final = sub.close();
    if (graceful) sse?.event(final);
    sse?.end();
    sse = undefined;
  };
  const closeGracefully = () => stop(true);
  ctx.longLived.add(closeGracefully);
  res.onGone(() => stop(false));
}
