/**
 * GET and DELETE on a legacy session: the standalone server-to-client stream (one at a time),
 * `Last-Event-ID` resumption of that session's own streams only, and termination.
 */
import { ErrorCode } from '../../protocol/error-codes';
import type { EndpointContext, Exchange } from './endpoint-context';
import { header, type HeaderBag, type ResponseSink } from './http-exchange';
import { findSession } from './legacy-post';
import { ReplyStream } from './reply-stream';
import { noId, sendEmpty, sendError } from './responses';
import { SSE_HEADERS, SseWriter } from './sse-writer';

export async function legacyGet(
  ctx: EndpointContext,
  headers: HeaderBag,
  res: ResponseSink,
  ex: Exchange,
): Promise<void> {
  if (!/(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(header(headers, 'accept') ?? '')) {
    return sendError(
      res,
      406,
      noId(headers),
      ErrorCode.InvalidRequest,
      'Not Acceptable: the GET stream needs Accept: text/event-stream',
      ex.responseHeaders,
    );
  }
  const session = findSession(ctx, headers, res, ex, noId(headers));
  if (!session) return;
  const lastEventId = header(headers, 'last-event-id');
  const found = lastEventId === undefined ? undefined : await ctx.store.eventsAfter(lastEventId);
  // Events of another session (or an unknown id) are never replayed: the id is simply not honoured.
  if (found && session.owns(found.streamId)) {
    const live = session.streams.get(found.streamId);
    const busy = live === session.getStream && live !== undefined && !live.detached;
    if (busy)
      return sendError(
        res,
        409,
        noId(headers),
        ErrorCode.InvalidRequest,
        'Conflict: this session already has an open GET stream',
        ex.responseHeaders,
      );
    if (live && !live.isFinished) return live.resume(res, found.events);
    const sse = new SseWriter(res.openStream(200, { ...SSE_HEADERS, ...ex.responseHeaders }));
    for (const e of found.events) if (e.message) sse.event(e.message, e.id);
    return sse.end();
  }
  if (session.getStream && !session.getStream.detached) {
    return sendError(
      res,
      409,
      noId(headers),
      ErrorCode.InvalidRequest,
      'Conflict: this session already has an open GET stream',
      ex.responseHeaders,
    );
  }
  if (session.getStream) return session.getStream.resume(res, []);
  const stream = new ReplyStream(res, {
    headers: ex.responseHeaders,
    keepAliveMs: ctx.options.sseKeepAliveMs,
    resumable: session.resumable('get', ctx.options.sseRetryMs),
  });
  session.getStream = stream;
  await stream.open(); // names and registers it
}

export function legacyDelete(ctx: EndpointContext, headers: HeaderBag, res: ResponseSink, ex: Exchange): void {
  const session = findSession(ctx, headers, res, ex, noId(headers));
  if (!session) return;
  ctx.sessions.delete(session.id);
  sendEmpty(res, 200, ex.responseHeaders);
}
