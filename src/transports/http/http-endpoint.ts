/**
 * The one MCP endpoint for both eras, independent of the HTTP server underneath: Host/Origin
 * checks, method and content negotiation, body limits, decoding, classification (digest §1.4),
 * authentication, then the modern or legacy handler. Never throws; never answers 500 for bad input.
 */
import { ErrorCode } from '../../protocol/error-codes';
import type { ServerEndpoint } from '../../server/server-endpoint';
import { thrownDetail } from '../../server/core/server-logger';
import type { EndpointContext } from './endpoint-context';
import { InMemoryEventStore } from './event-store';
import { corsHeaders, preflight, rejectHostOrOrigin, type HostPolicy } from './host-guard';
import { header, type BodySource, type HeaderBag, type HttpRequestView, type ResponseSink } from './http-exchange';
import { APPROVAL_PATH_SEGMENT, type PageRequest } from '../../context/approval-pages';
import type { HttpOptions } from './http-options';
import { Inflight } from './inflight';
import { legacyDelete, legacyGet } from './legacy-get-delete';
import { authenticate } from './http-authenticate';
import { postRequest } from './post-request';
import { answerResourceMetadata } from './resource-metadata-route';
import { noId, sendEmpty, sendError } from './responses';
import { SessionStore } from './session-store';
import { logEviction } from './session-evictions';

const ALLOW = 'GET, POST, DELETE';

/** What `handle` returns for a request answered at once. */
const ANSWERED: Promise<void> = Promise.resolve();

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
   * When the drain began or, after it, a request that arrived before it was answered (epoch ms):
   * shutdown closes idle connections only after a quiet moment since then. A request that arrives
   * while draining does not count: its connection closes with its answer (`Connection: close`), so
   * no proxy can send on it again. Not kept outside a drain.
   */
  lastRequestAt = 0;

  /** serveHttp learns the real port only after listening. */
  setPolicy(policy: HostPolicy): void {
    this.policy = policy;
  }

  /** Serves one request; the promise settles once it is answered. */
  handle(req: HttpRequestView, res: ResponseSink): Promise<void> {
    return this.serve(req, res) ?? ANSWERED;
  }

  /**
   * `handle` for a caller that needs no promise back when the answer was given at once (node:http).
   * Not async: a request whose steps chain their own `then`s adds no async frame here.
   */
  serve(req: HttpRequestView, res: ResponseSink): Promise<void> | undefined {
    const keptAlive = !this.closing;
    let routed: Promise<void> | void;
    try {
      routed = this.route(req, res);
    } catch (e) {
      this.failed(req, res, e);
      if (keptAlive) this.answered();
      return undefined;
    }
    if (!routed) return void (keptAlive && this.answered());
    return routed.then(keptAlive ? this.answered : undefined, (e: unknown) => {
      this.failed(req, res, e);
      if (keptAlive) this.answered();
    });
  }

  /**
   * A request from before the drain was answered: its connection may be reused from here, so a
   * draining server waits for a quiet moment. A field: no closure per request.
   */
  private readonly answered = (): void => {
    if (this.closing) this.lastRequestAt = Date.now();
  };

  private failed(req: HttpRequestView, res: ResponseSink, e: unknown): void {
    this.ctx.logger.error('HTTP transport error', thrownDetail(e));
    try {
      sendError(res, 500, noId(req.headers), ErrorCode.InternalError, 'Internal error');
    } catch {
      // Headers already sent: nothing more can be said.
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

  /** Not async: `serve` chains what a branch returns, without one more promise adopting it. */
  private route(req: HttpRequestView, res: ResponseSink): Promise<void> | void {
    const refusal = rejectHostOrOrigin(req.headers, this.policy);
    if (refusal) return sendError(res, 403, noId(req.headers), ErrorCode.InvalidRequest, `Forbidden: ${refusal}`);
    const cors = corsHeaders(req.headers, this.policy);
    if (req.method === 'OPTIONS') {
      const pre = preflight(req.headers, this.policy);
      return pre ? sendEmpty(res, 204, pre) : sendEmpty(res, 405, { Allow: ALLOW });
    }
    if (this.closing && !this.servesHeldSession(req))
      return sendError(res, 503, noId(req.headers), ErrorCode.InternalError, 'Server is shutting down', {
        ...cors,
        Connection: 'close',
      });
    switch (req.method) {
      case 'POST':
        return postRequest(this.ctx, req, res, cors);
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
}
