/**
 * The one MCP endpoint for both eras, independent of the HTTP server underneath: Host/Origin
 * checks, method and content negotiation, body limits, decoding, classification (digest §1.4),
 * authentication, then the modern or legacy handler. Never throws; never answers 500 for bad input.
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
  type RequestId,
} from '../../protocol/jsonrpc';
import type { ServerEndpoint } from '../../server/server-endpoint';
import { thrownDetail } from '../../server/core/server-logger';
import { parsedBodyProblem } from './body-reader';
import type { EndpointContext, Exchange } from './endpoint-context';
import { InMemoryEventStore } from './event-store';
import { corsHeaders, preflight, rejectHostOrOrigin, type HostPolicy } from './host-guard';
import { header, type BodySource, type HeaderBag, type HttpRequestView, type ResponseSink } from './http-exchange';
import { APPROVAL_PATH_SEGMENT, type PageRequest } from '../../context/approval-pages';
import type { HttpOptions } from './http-options';
import { Inflight } from './inflight';
import { legacyDelete, legacyGet } from './legacy-get-delete';
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
import { acceptsReply } from './accept-header';
import { legacyBatchPost } from './legacy-batch';
import { authenticate } from './http-authenticate';
import { clientAddressOf } from './client-address';
import { answerResourceMetadata } from './resource-metadata-route';
import { noId, sendEmpty, sendError, sendJson } from './responses';
import { SessionStore } from './session-store';
import { logEviction } from './session-evictions';

const ALLOW = 'GET, POST, DELETE';

/** A page's form body: raw text with its cap, or what a framework's form parser made of it. */
async function formBody(body: BodySource, limit: number): ReturnType<PageRequest['readBody']> {
  if (body.kind === 'raw') return body.read(limit);
  const value = body.value;
  if (typeof value === 'string') return { ok: true, text: value };
  if (typeof value !== 'object' || value === null) return { ok: false, status: 400, reason: 'no form body' };
  const text = new URLSearchParams(value as Record<string, string>).toString();
  return text.length > limit ? { ok: false, status: 413, reason: 'too large' } : { ok: true, text };
}

const WITHDRAWN = 'The server is shutting down: this question was withdrawn; call the tool again.';

export class HttpEndpoint {
  readonly ctx: EndpointContext;
  private closing = false;

  constructor(
    server: ServerEndpoint,
    readonly options: Readonly<HttpOptions>,
    private policy: HostPolicy,
  ) {
    const store = options.eventStore ?? server.settings.eventStore ?? new InMemoryEventStore();
    this.ctx = {
      server,
      options,
      store,
      sessions: new SessionStore(
        {
          maxSessions: options.maxSessions,
          maxSessionsPerPrincipal: options.maxSessionsPerPrincipal,
          maxAnonymousSessions: options.maxAnonymousSessions,
          idleTimeoutMs: options.sessionIdleTimeoutMs,
          evictableAfterMs: options.sessionEvictionMinIdleMs,
          onEvicted: (e) => {
            logEviction(server.settings.logger, e);
            server.settings.sessionEvicted?.(e.pool);
          },
          pendingAsks: server.settings.pendingAsks,
          idPrefix: options.sessionIdPrefix,
        },
        store,
      ),
      inflight: new Inflight(),
      longLived: new Set(),
      logger: server.settings.logger,
    };
  }

  /** Whether shutdown has begun (new requests get 503). */
  get draining(): boolean {
    return this.closing;
  }

  /** Whether legacy sessions live here (a draining server keeps accepting connections for their answers). */
  get holdsSessions(): boolean {
    return this.ctx.sessions.size > 0;
  }

  /**
   * When the last request arrived or ended since the drain began (epoch ms; its start counts as
   * one): shutdown waits for a quiet moment before closing connections. Not kept outside a drain.
   */
  lastRequestAt = 0;

  /** serveHttp learns the real port only after listening. */
  setPolicy(policy: HostPolicy): void {
    this.policy = policy;
  }

  async handle(req: HttpRequestView, res: ResponseSink): Promise<void> {
    try {
      await this.route(req, res);
      if (this.closing) this.lastRequestAt = Date.now(); // the connection is idle from here
    } catch (e) {
      this.ctx.logger.error('HTTP transport error', thrownDetail(e));
      try {
        sendError(res, 500, noId(req.headers), ErrorCode.InternalError, 'Internal error');
      } catch {
        // Headers already sent: nothing more can be said.
      }
    }
  }

  /** Whether `path` is a protected resource metadata path (an adapter asks before building a response). */
  servesMetadataAt(path: string): boolean {
    return this.ctx.server.settings.resourceServer?.metadataPaths.includes(path) ?? false;
  }

  /** The metadata paths (none unless the server is an OAuth resource), for routers that declare routes. */
  get metadataPaths(): readonly string[] {
    return this.ctx.server.settings.resourceServer?.metadataPaths ?? [];
  }

  /**
   * A request for another path than the endpoint's: answers it when it is a protected resource
   * metadata path of the server (and returns true); otherwise sends nothing and returns false.
   */
  answerOtherPath(method: string, path: string, headers: HeaderBag, res: ResponseSink): boolean {
    if (!this.servesMetadataAt(path)) return false;
    return answerResourceMetadata(this.ctx.server.settings.resourceServer, this.policy, method, path, headers, res);
  }

  /** The token of an approval page under this endpoint's path (`<path>/approval/<token>`), if `path` is one. */
  approvalToken(path: string): string | undefined {
    if (!this.ctx.server.settings.approvalPages) return undefined;
    const prefix = this.options.path.replace(/\/+$/, '') + APPROVAL_PATH_SEGMENT;
    return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
  }

  /** Shows an approval page (GET) or records its answer (POST); the page checks where a POST comes from. */
  async answerApprovalPage(
    method: string,
    token: string,
    headers: HeaderBag,
    body: BodySource,
    res: ResponseSink,
  ): Promise<void> {
    const pages = this.ctx.server.settings.approvalPages;
    if (!pages) return sendError(res, 404, null, ErrorCode.InvalidRequest, 'Not Found');
    try {
      await pages.answer({ method, token, headers, readBody: (limit) => formBody(body, limit) }, res);
    } catch (e) {
      this.ctx.logger.error('approval page failed', thrownDetail(e));
      if (!res.gone) res.send(500, { 'Content-Type': 'text/plain; charset=utf-8' }, 'Internal error');
    }
  }

  /**
   * Stop taking new work (503), end long-lived streams, let in-flight calls finish (until the
   * deadline). The POSTs of sessions held here are still served meanwhile: an answer to a pending
   * ask, a cancel, the rest of a running call.
   */
  async shutdown(deadlineMs: number, withdrawAsks = false): Promise<void> {
    this.closing = true;
    this.lastRequestAt = Date.now();
    for (const close of [...this.ctx.longLived]) close();
    // A developer's restart withdraws questions nobody will answer (the call ends with the reason); a
    // fleet drain keeps them, since the answer comes through the proxy.
    let withdrawn = 0;
    for (const s of withdrawAsks ? this.ctx.sessions.all() : []) withdrawn += s.outbound.withdrawAll(WITHDRAWN);
    if (this.ctx.inflight.size > 0) {
      this.ctx.logger.warn(
        `shutting down: waiting up to ${deadlineMs} ms for ${this.ctx.inflight.size} request(s) in flight` +
          (withdrawn > 0 ? ` (${withdrawn} question(s) to clients withdrawn)` : ''),
      );
    }
    const clean = await this.ctx.inflight.drain(deadlineMs);
    if (!clean) this.ctx.inflight.abortAll('server shutting down');
    this.ctx.sessions.closeAll('server shutting down');
  }

  /** Not async: `handle` awaits what a branch returns, without one more promise adopting it. */
  private route(req: HttpRequestView, res: ResponseSink): Promise<void> | void {
    const refusal = rejectHostOrOrigin(req.headers, this.policy);
    if (refusal) return sendError(res, 403, noId(req.headers), ErrorCode.InvalidRequest, `Forbidden: ${refusal}`);
    const cors = corsHeaders(req.headers, this.policy);
    if (req.method === 'OPTIONS') {
      const pre = preflight(req.headers, this.policy);
      return pre ? sendEmpty(res, 204, pre) : sendEmpty(res, 405, { Allow: ALLOW });
    }
    if (this.closing) this.lastRequestAt = Date.now();
    if (this.closing && !this.servesHeldSession(req))
      return sendError(res, 503, noId(req.headers), ErrorCode.InternalError, 'Server is shutting down', {
        ...cors,
        Connection: 'close',
      });
    switch (req.method) {
      case 'POST':
        return this.post(req, res, cors);
      case 'GET':
      case 'DELETE':
        return this.sessionOp(req, res, cors);
      default:
        return sendEmpty(res, 405, { ...cors, Allow: ALLOW });
    }
  }

  /** A POST or DELETE of a legacy session this instance holds (a draining instance finishes them). */
  private servesHeldSession(req: HttpRequestView): boolean {
    if (req.method !== 'POST' && req.method !== 'DELETE') return false;
    const id = header(req.headers, 'mcp-session-id');
    return id !== undefined && this.ctx.sessions.has(id);
  }

  /** GET/DELETE exist only for legacy sessions; without a session id this is a 2026-style endpoint: 405. */
  private async sessionOp(req: HttpRequestView, res: ResponseSink, cors: Record<string, string>): Promise<void> {
    if (header(req.headers, 'mcp-session-id') === undefined) return sendEmpty(res, 405, { ...cors, Allow: 'POST' });
    const ex = await authenticate(this.ctx, req.headers, res, noId(req.headers), cors);
    if (!ex) return;
    return req.method === 'GET'
      ? legacyGet(this.ctx, req.headers, res, ex)
      : legacyDelete(this.ctx, req.headers, res, ex);
  }

  private async post(req: HttpRequestView, res: ResponseSink, cors: Record<string, string>): Promise<void> {
    const contentType = header(req.headers, 'content-type') ?? '';
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
    if (!acceptsReply(header(req.headers, 'accept'))) {
      return sendError(
        res,
        406,
        noId(req.headers),
        ErrorCode.InvalidRequest,
        'Not Acceptable: Accept must allow application/json or text/event-stream',
        cors,
      );
    }
    const read = this.decode(req, res, cors);
    const decoded = read instanceof Promise ? await read : read;
    if (!decoded) return;
    switch (decoded.kind) {
      case 'invalid':
        return sendJson(res, 400, withUnknownId(decoded.error, versionOf(req.headers)), cors);
      case 'batch':
        return legacyBatchPost(this.ctx, req.headers, decoded.items, res, cors);
      case 'response': {
        if (header(req.headers, 'mcp-session-id') === undefined) {
          return sendError(
            res,
            400,
            noId(req.headers),
            ErrorCode.InvalidRequest,
            'Invalid Request: a response can only answer a request of a legacy session',
            cors,
          );
        }
        const ex = await authenticate(this.ctx, req.headers, res, noId(req.headers), cors);
        const session = ex && findSession(this.ctx, req.headers, res, ex, noId(req.headers));
        if (!session) return;
        sessionResponse(session, decoded.message);
        return sendEmpty(res, 202, cors);
      }
    }
    const message = decoded.message;
    const id: RequestId | null | undefined = 'id' in message ? message.id : noId(req.headers);
    const versionHeader = header(req.headers, 'mcp-protocol-version');
    const era = classifyMessage(message.params, versionHeader);
    if (era.era === 'invalid')
      return sendError(res, 400, id, ErrorCode.InvalidParams, `Invalid request metadata: ${era.reason}`, cors);
    const claimMismatch = envelopeHeaderMismatch(message.params, versionHeader);
    if (claimMismatch) return sendError(res, 400, id, ErrorCode.HeaderMismatch, claimMismatch, cors);
    const clientAddress = clientAddressOf(req.remoteAddress, req.headers, this.ctx.options.trustedProxies);
    const authenticated = authenticate(this.ctx, req.headers, res, id, cors, clientAddress);
    const ex = authenticated instanceof Promise ? await authenticated : authenticated;
    if (!ex) return;
    // Awaited, not returned: an async function returning a promise adopts it with one more job and tick.
    if (era.era === 'modern') {
      // Client notifications have no meaning on 2026 HTTP (cancellation is closing the stream).
      if (decoded.kind === 'notification') return sendEmpty(res, 202, cors);
      const replied = modernRequest(this.ctx, message as JsonRpcRequest, req.headers, res, ex);
      if (replied) await replied;
      return;
    }
    await this.legacyPost(req.headers, decoded, res, ex);
  }

  private async legacyPost(
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
      return legacyInitialize(this.ctx, decoded.message, res, ex);
    }
    if (hasSession) {
      const id = decoded.kind === 'request' ? decoded.message.id : noId(headers);
      const session = findSession(this.ctx, headers, res, ex, id);
      if (!session) return;
      if (decoded.kind === 'notification') {
        sessionNotification(this.ctx, session, decoded.message);
        return sendEmpty(res, 202, ex.responseHeaders);
      }
      return sessionRequest(this.ctx, session, decoded.message, res, ex);
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
    return statelessRequest(this.ctx, decoded.message, version, res, ex);
  }

  /** Not async: the body's read is the one promise (a parsed body needs none). */
  private decode(
    req: HttpRequestView,
    res: ResponseSink,
    cors: Record<string, string>,
  ): Decoded | undefined | Promise<Decoded | undefined> {
    if (req.body.kind === 'parsed') {
      const declared = Number(header(req.headers, 'content-length'));
      const problem = parsedBodyProblem(req.body.value, declared, this.options.maxBodyBytes, MAX_JSON_DEPTH);
      if (!problem) return decodeValue(req.body.value);
      sendError(res, problem.status, noId(req.headers), ErrorCode.InvalidRequest, problem.reason, cors);
      return undefined;
    }
    return req.body.read(this.options.maxBodyBytes).then((body) => {
      if (body.ok) return decodeText(body.text);
      const code = body.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError;
      sendError(res, body.status, noId(req.headers), code, body.reason, { ...cors, Connection: 'close' });
      return undefined;
    });
  }
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
