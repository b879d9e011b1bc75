/**
 * POSTs of the initialize era (2025-11-25, 2025-06-18, 2025-03-26): `initialize` opens a session;
 * requests on a session may stream notifications and server-to-client requests before their reply;
 * the client's responses and notifications are routed to their session. Without a session header
 * and without initialize, a request is served statelessly by a throwaway session.
 */
import { replyHeaders, replyStatus } from './reply-status';
import type { ResourceServer } from '../../server/core/resource-server';
import { ErrorCode } from '../../protocol/error-codes';
import {
  failure,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../../protocol/jsonrpc';
import { isLegacyVersion, type LegacyVersion } from '../../protocol/versions';
import { LegacySession } from '../../server/legacy/legacy-session';
import { StoreUnavailableError } from '../../state/store-unavailable';
import type { RequestIO } from '../../server/request/request-io';
import type { Reply } from '../../server/server-endpoint';
import type { EndpointContext, Exchange } from './endpoint-context';
import { header, type HeaderBag, type ResponseSink } from './http-exchange';
import type { HttpSession } from './http-session';
import { takeSessionSlot } from './fleet-sessions';
import type { SessionRefusal } from './session-store';
import { ReplyStream } from './reply-stream';
import { sendError, sendJson } from './responses';
import { ReplyIO } from './reply-io';
import { SessionRequestIO } from './session-request-io';

export const SESSION_HEADER = 'Mcp-Session-Id';
const NOT_FOUND = 'Session not found';

/**
 * The session named by the request, or an error already sent: 404 for an unknown or foreign id
 * (the same answer for both), 400 when MCP-Protocol-Version names another revision than the one
 * the session negotiated (an absent header is allowed: 2025-03-26 clients send none).
 */
export function findSession(
  ctx: EndpointContext,
  headers: HeaderBag,
  res: ResponseSink,
  ex: Exchange,
  id: JsonRpcRequest['id'] | null | undefined,
): HttpSession | undefined {
  const sid = header(headers, 'mcp-session-id');
  const session = sid === undefined ? undefined : ctx.sessions.get(sid, ex.principal?.id);
  if (!session) {
    sendError(res, 404, id, ErrorCode.InvalidRequest, NOT_FOUND, ex.responseHeaders);
    return undefined;
  }
  const version = header(headers, 'mcp-protocol-version')?.trim();
  if (version !== undefined && version !== session.legacy.protocolVersion) {
    const why = isLegacyVersion(version)
      ? `this session negotiated ${session.legacy.protocolVersion}`
      : 'not a supported revision';
    sendError(
      res,
      400,
      id,
      ErrorCode.InvalidRequest,
      `Bad Request: MCP-Protocol-Version "${version}" (${why})`,
      ex.responseHeaders,
    );
    return undefined;
  }
  return session;
}

export async function legacyInitialize(
  ctx: EndpointContext,
  req: JsonRpcRequest,
  res: ResponseSink,
  ex: Exchange,
): Promise<void> {
  const fleet = await takeSessionSlot(ctx, ex.principal?.id);
  if (fleet === 'unavailable') {
    const message = StoreUnavailableError.clientMessage;
    return sendError(res, 503, req.id, ErrorCode.InternalError, message, ex.responseHeaders);
  }
  const session = isRefusal(fleet) ? fleet : ctx.sessions.create(ex.principal?.id, fleet);
  if (isRefusal(session)) return sendSessionRefusal(ctx, session, req, res, ex);
  const io: RequestIO = {
    signal: new AbortController().signal,
    notify: () => undefined,
    principal: ex.principal,
    transport: 'http',
  };
  // In use while it initializes: a full pool never takes a session before its first answer.
  const initializing = new AbortController();
  session.inflight.set(req.id, initializing);
  let reply: Reply;
  try {
    reply = await ctx.inflight.track(Promise.resolve(ctx.server.dispatchLegacy(req, session.legacy, io)));
  } finally {
    session.inflight.delete(req.id);
    session.touch();
  }
  if (!('result' in reply.message)) ctx.sessions.delete(session.id);
  const headers =
    'result' in reply.message ? { ...ex.responseHeaders, [SESSION_HEADER]: session.id } : ex.responseHeaders;
  sendJson(res, replyStatus(reply, 'legacy'), reply.message, headers);
}

function isRefusal(v: unknown): v is SessionRefusal {
  return typeof v === 'object' && v !== null && 'retryAfterMs' in v;
}

/**
 * A refused session, here or fleet-wide: its pool is full and none of its sessions has been idle
 * long enough to be evicted. 429 for a client's share (503 for the server's whole pool), with
 * `Retry-After` and -32004 naming the option.
 */
function sendSessionRefusal(
  ctx: EndpointContext,
  refusal: SessionRefusal,
  req: JsonRpcRequest,
  res: ResponseSink,
  ex: Exchange,
): void {
  const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  const quota = ctx.sessions.quotaOf(ex.principal?.id);
  const which =
    refusal.pool === 'server'
      ? `the server already holds ${ctx.options.maxSessions} sessions (maxSessions)`
      : refusal.pool === 'principal'
        ? `this principal already holds ${quota} sessions (maxSessionsPerPrincipal)`
        : `unauthenticated clients already hold ${quota} sessions (maxAnonymousSessions)`;
  const busy = `all in use or used within the last ${ctx.options.sessionEvictionMinIdleMs / 1000} s`;
  sendError(
    res,
    refusal.pool === 'server' ? 503 : 429,
    req.id,
    ErrorCode.TooManySessions,
    `Too many sessions: ${which}, ${busy}; end one with DELETE or retry in ${seconds} s`,
    { ...ex.responseHeaders, 'Retry-After': String(seconds) },
    { reason: 'too_many_sessions', pool: refusal.pool, retryAfterMs: refusal.retryAfterMs, retryAfterSeconds: seconds },
  );
}

/** A request on a session: JSON, or SSE (resumable, primed on 2025-11-25) once something precedes the reply. */
export function sessionRequest(
  ctx: EndpointContext,
  session: HttpSession,
  req: JsonRpcRequest,
  res: ResponseSink,
  ex: Exchange,
): Promise<void> | undefined {
  if (session.inflight.has(req.id)) {
    sendError(
      res,
      400,
      req.id,
      ErrorCode.InvalidRequest,
      `Request id ${String(req.id)} is already in flight`,
      ex.responseHeaders,
    );
    return undefined;
  }
  const resumable = session.resumable('post', ctx.options.sseRetryMs);
  const reply = new ReplyStream(res, { headers: ex.responseHeaders, resumable });
  const io = new SessionRequestIO(session, reply, req.id, ex.principal, ex.clientAddress);
  let answer: Reply | Promise<Reply>;
  try {
    answer = ctx.server.dispatchLegacy(req, session.legacy, io);
  } catch (e) {
    io.release();
    throw e;
  }
  // A synchronous handler's reply goes out now: nothing is in flight across a tick, so nothing can
  // cancel it, and it takes no entry in the session's in-flight map (see session-request-io.ts).
  if (answer instanceof Promise) {
    session.inflight.set(req.id, io);
    return answerLater(ctx, io, reply, answer);
  }
  const sending = send(ctx, io, reply, answer);
  if (sending) return sending.finally(() => io.release());
  io.release();
  return undefined;
}

async function answerLater(ctx: EndpointContext, io: SessionRequestIO, reply: ReplyStream, answer: Promise<Reply>) {
  ctx.inflight.enter(io);
  try {
    await send(ctx, io, reply, await answer);
  } finally {
    ctx.inflight.leave(io);
    io.release();
  }
}

/** The reply; a request the client cancelled gets none (stdio and sessionless HTTP likewise). */
function send(ctx: EndpointContext, io: SessionRequestIO, reply: ReplyStream, answer: Reply): Promise<void> | void {
  if (io.aborted) return reply.end();
  return reply.finish(answer.message, replyStatus(answer, 'legacy'), replyHeaders(answer, rs(ctx)), answer.json);
}

/** A request without session and without initialize: served once, with no channel for asks. */
export async function statelessRequest(
  ctx: EndpointContext,
  req: JsonRpcRequest,
  version: LegacyVersion,
  res: ResponseSink,
  ex: Exchange,
): Promise<void> {
  const session = new LegacySession(undefined, ex.principal?.id);
  session.protocolVersion = version;
  session.initialized = true;
  const reply = new ReplyStream(res, { headers: ex.responseHeaders });
  const io = new ReplyIO(reply, ex.principal, ex.clientAddress);
  // Nobody can resume this stream, so a client that leaves cancels.
  res.onGone(() => io.abort(new Error('The client closed the response stream')));
  const answer = await ctx.inflight.track(Promise.resolve(ctx.server.dispatchLegacy(req, session, io)), io);
  if (!io.aborted) {
    await reply.finish(answer.message, replyStatus(answer, 'legacy'), replyHeaders(answer, rs(ctx)), answer.json);
  }
}

/** The revision a sessionless legacy request speaks (header absent: 2025-03-26). */
export function statelessVersion(headers: HeaderBag): LegacyVersion | undefined {
  const v = header(headers, 'mcp-protocol-version')?.trim();
  if (v === undefined) return '2025-03-26';
  return isLegacyVersion(v) ? v : undefined;
}

export function sessionNotification(ctx: EndpointContext, session: HttpSession, n: JsonRpcNotification): void {
  if (n.method === 'notifications/cancelled') {
    const id = n.params?.requestId;
    if (typeof id === 'string' || typeof id === 'number') {
      session.inflight.get(id)?.abort(new Error(typeof n.params?.reason === 'string' ? n.params.reason : 'cancelled'));
    }
    return;
  }
  ctx.server.legacyNotification(n, session.legacy);
  if (n.method === 'notifications/initialized') session.followChanges(ctx.server);
}

export function sessionResponse(session: HttpSession, r: JsonRpcResponse): void {
  session.outbound.settle(r);
}

/** A 2025-03-26 batch: requests answered together as an array; asks and notifications have no stream here. */
export async function legacyBatch(
  ctx: EndpointContext,
  session: LegacySession,
  http: HttpSession | undefined,
  items: Array<{ kind: string; message?: JsonRpcMessage; error?: JsonRpcResponse }>,
  ex: Exchange,
): Promise<JsonRpcResponse[]> {
  const replies = await Promise.all(
    items.map(async (d): Promise<JsonRpcResponse | undefined> => {
      if (d.kind === 'invalid') return d.error;
      const m = d.message!;
      if (d.kind === 'response') return void (http && sessionResponse(http, m as JsonRpcResponse));
      if (d.kind === 'notification') return void (http && sessionNotification(ctx, http, m as JsonRpcNotification));
      const req = m as JsonRpcRequest;
      if (req.method === 'initialize') return failure(req.id, ErrorCode.InvalidRequest, 'initialize cannot be batched');
      const controller = new AbortController();
      http?.inflight.set(req.id, controller);
      const io: RequestIO = {
        transport: 'http',
        signal: controller.signal,
        notify: (n) => http?.getStream?.push(n),
        principal: ex.principal,
      };
      try {
        const answer = Promise.resolve(ctx.server.dispatchLegacy(req, session, io));
        return (await ctx.inflight.track(answer, controller)).message;
      } finally {
        http?.inflight.delete(req.id);
      }
    }),
  );
  return replies.filter((r): r is JsonRpcResponse => r !== undefined);
}

function rs(ctx: EndpointContext): ResourceServer | undefined {
  return ctx.server.settings.resourceServer;
}
