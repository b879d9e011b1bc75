/**
 * A POST to the MCP endpoint: Content-Type and Accept, the body read and decoded, the message
 * classified by era (digest §1.4) and its claim checked against the version header, the caller
 * authenticated, then the 2026 handler (modern-post.ts) or the legacy one (legacy-post.ts).
 */
import { classifyMessage, envelopeClaim } from '../../protocol/classify';
import { ErrorCode } from '../../protocol/error-codes';
import {
  decodeText,
  decodeValue,
  MAX_JSON_DEPTH,
  withUnknownId,
  type Decoded,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from '../../protocol/jsonrpc';
import { acceptsReply } from './accept-header';
import { parsedBodyProblem } from './body-reader';
import { clientAddressOf } from './client-address';
import type { EndpointContext, Exchange } from './endpoint-context';
import { authenticate } from './http-authenticate';
import { firstOf, header, type HeaderBag, type HttpRequestView, type ResponseSink } from './http-exchange';
import { legacyBatchPost } from './legacy-batch';
import {
  findSession,
  legacyInitialize,
  sessionNotification,
  sessionRequest,
  sessionResponse,
  statelessRequest,
  statelessVersion,
} from './legacy-post';
import { modernRequest } from './modern-post';
import { noId, sendEmpty, sendError, sendJson } from './responses';

/**
 * A POST to the endpoint: content negotiation, decoding, classification, authentication, then the
 * era's handler. Not async: each step that must wait chains the next with one `then` (no async
 * frames); what it returns settles when the request is answered (undefined when it already is).
 */
export function postRequest(
  ctx: EndpointContext,
  req: HttpRequestView,
  res: ResponseSink,
  cors: Record<string, string>,
): Promise<void> | void {
  const contentType = firstOf(req.headers['content-type']) ?? '';
  if (contentType !== 'application/json' && !/^application\/json\s*(;|$)/i.test(contentType)) {
    return sendError(
      res,
      415,
      noId(req.headers),
      ErrorCode.InvalidRequest,
      'Unsupported Media Type: use Content-Type: application/json',
      cors,
    );
  }
  if (!acceptsReply(firstOf(req.headers.accept))) {
    return sendError(
      res,
      406,
      noId(req.headers),
      ErrorCode.InvalidRequest,
      'Not Acceptable: Accept must allow application/json or text/event-stream',
      cors,
    );
  }
  const body = req.body;
  if (body.kind === 'parsed') {
    const declared = Number(header(req.headers, 'content-length'));
    const problem = parsedBodyProblem(body.value, declared, ctx.options.maxBodyBytes, MAX_JSON_DEPTH);
    if (!problem) return decoded(ctx, req, res, cors, decodeValue(body.value));
    return sendError(res, problem.status, noId(req.headers), ErrorCode.InvalidRequest, problem.reason, cors);
  }
  return body.read(ctx.options.maxBodyBytes).then((read) => {
    if (read.ok) return decoded(ctx, req, res, cors, decodeText(read.text));
    const code = read.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError;
    sendError(res, read.status, noId(req.headers), code, read.reason, { ...cors, Connection: 'close' });
  });
}

/** The decoded body: answered here when it is no request, else classified and authenticated. */
function decoded(
  ctx: EndpointContext,
  req: HttpRequestView,
  res: ResponseSink,
  cors: Record<string, string>,
  decoded: Decoded,
): Promise<void> | void {
  switch (decoded.kind) {
    case 'invalid':
      return sendJson(res, 400, withUnknownId(decoded.error, versionOf(req.headers)), cors);
    case 'batch':
      return legacyBatchPost(ctx, req.headers, decoded.items, res, cors);
    case 'response':
      return clientResponse(ctx, req.headers, res, cors, decoded.message);
  }
  const message = decoded.message;
  const id: RequestId | null | undefined = 'id' in message ? message.id : noId(req.headers);
  const versionHeader = firstOf(req.headers['mcp-protocol-version']);
  const era = classifyMessage(message.params, versionHeader);
  if (era.era === 'invalid')
    return sendError(res, 400, id, ErrorCode.InvalidParams, `Invalid request metadata: ${era.reason}`, cors);
  const claimMismatch = envelopeHeaderMismatch(message.params, versionHeader);
  if (claimMismatch) return sendError(res, 400, id, ErrorCode.HeaderMismatch, claimMismatch, cors);
  const clientAddress = clientAddressOf(req.remoteAddress, req.headers, ctx.options.trustedProxies);
  const authenticated = authenticate(ctx, req.headers, res, id, cors, clientAddress);
  const modern = era.era === 'modern';
  if (authenticated instanceof Promise)
    return authenticated.then((ex) => ex && served(ctx, req.headers, res, decoded, modern, ex));
  return authenticated && served(ctx, req.headers, res, decoded, modern, authenticated);
}

/** An authenticated request or notification, handed to its era's handler. */
function served(
  ctx: EndpointContext,
  headers: HeaderBag,
  res: ResponseSink,
  decoded: Decoded & { kind: 'request' | 'notification' },
  modern: boolean,
  ex: Exchange,
): Promise<void> | void {
  if (!modern) return legacyPost(ctx, headers, decoded, res, ex);
  // Client notifications have no meaning on 2026 HTTP (cancellation is closing the stream).
  if (decoded.kind === 'notification') return sendEmpty(res, 202, ex.responseHeaders);
  return modernRequest(ctx, decoded.message, headers, res, ex);
}

/** A client's answer to a legacy session's server-to-client request. */
async function clientResponse(
  ctx: EndpointContext,
  headers: HeaderBag,
  res: ResponseSink,
  cors: Record<string, string>,
  message: JsonRpcResponse,
): Promise<void> {
  if (header(headers, 'mcp-session-id') === undefined) {
    return sendError(
      res,
      400,
      noId(headers),
      ErrorCode.InvalidRequest,
      'Invalid Request: a response can only answer a request of a legacy session',
      cors,
    );
  }
  const ex = await authenticate(ctx, headers, res, noId(headers), cors);
  const session = ex && findSession(ctx, headers, res, ex, noId(headers));
  if (!session) return;
  sessionResponse(session, message);
  return sendEmpty(res, 202, cors);
}

async function legacyPost(
  ctx: EndpointContext,
  headers: HeaderBag,
  decoded: Decoded & { kind: 'request' | 'notification' },
  res: ResponseSink,
  ex: Exchange,
): Promise<void> {
  const hasSession = header(headers, 'mcp-session-id') !== undefined;
  if (decoded.kind === 'request' && decoded.message.method === 'initialize') {
    if (hasSession)
      return sendError(
        res,
        400,
        decoded.message.id,
        ErrorCode.InvalidRequest,
        'initialize must not carry Mcp-Session-Id',
        ex.responseHeaders,
      );
    return legacyInitialize(ctx, decoded.message, res, ex);
  }
  if (hasSession) {
    const id = decoded.kind === 'request' ? decoded.message.id : noId(headers);
    const session = findSession(ctx, headers, res, ex, id);
    if (!session) return;
    if (decoded.kind === 'notification') {
      sessionNotification(ctx, session, decoded.message);
      return sendEmpty(res, 202, ex.responseHeaders);
    }
    return sessionRequest(ctx, session, decoded.message, res, ex);
  }
  if (decoded.kind === 'notification') return sendEmpty(res, 202, ex.responseHeaders);
  const version = statelessVersion(headers);
  if (!version)
    return sendError(
      res,
      400,
      decoded.message.id,
      ErrorCode.InvalidRequest,
      'Unsupported MCP-Protocol-Version',
      ex.responseHeaders,
    );
  return statelessRequest(ctx, decoded.message, version, res, ex);
}

/**
 * A `_meta` protocolVersion claim must be mirrored by MCP-Protocol-Version, whatever the two
 * revisions are (digest §1.4 step 5): a legacy claim must not pass as legacy, nor a missing
 * header as 2025-03-26.
 */
function envelopeHeaderMismatch(
  params: JsonRpcRequest['params'],
  versionHeader: string | undefined,
): string | undefined {
  const claim = envelopeClaim(params);
  if (typeof claim !== 'string') return undefined;
  if (versionHeader === undefined) return 'Header mismatch: MCP-Protocol-Version header is required';
  if (versionHeader.trim() !== claim)
    return `Header mismatch: MCP-Protocol-Version header "${versionHeader.trim()}" does not match _meta protocolVersion`;
  return undefined;
}

function versionOf(headers: HeaderBag): string | undefined {
  return header(headers, 'mcp-protocol-version')?.trim();
}
