/**
 * The connection state under ContextClient: era and version, the request pipeline (envelope,
 * headers, timeout, cancellation, -32022 retry), inbound server requests and notifications.
 */
import { FrameworkError } from '../errors/framework-error';
import { ProtocolError } from '../errors/protocol-error';
import { ErrorCode } from '../protocol/error-codes';
import {
  failure,
  success,
  type JsonObject,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from '../protocol/jsonrpc';
import { isLogLevel, type LogLevel } from '../protocol/meta';
import type { ClientCapabilities, Implementation } from '../protocol/types';
import { MODERN_VERSION, type Era } from '../protocol/versions';
import { MissingInputHandlerError, RequestTimeoutError, SessionLostError } from './errors';
import { serverErrorOf } from './server-errors';
import { declaredCapabilities, answerInput, type InputHandlers } from './input-handlers';
import { modernHeaders, withLegacyMeta, withModernMeta, withTraceContext } from './envelope';
import type { ContextClientOptions, LogMessage, ProgressCallback } from './options';
import { ToolCatalog } from './tool-catalog';
import type { ClientTransport, InboundSink } from './transport';

export interface ExchangeOptions {
  signal?: AbortSignal;
  progressToken?: string | number;
  /** Notifications of this request go here instead of the client-wide handlers. */
  onNotification?: (n: JsonRpcNotification) => void;
  /** Long-lived requests (listen) have none; the probe has a shorter one. */
  timeoutMs?: number;
  onId?: (id: RequestId) => void;
  /** 2026: the capabilities this request declares instead of the client's (a bridge forwards its caller's). */
  capabilities?: ClientCapabilities;
  /** Log messages that belong to this request (its response stream) go here instead of `onLog`. */
  onLog?: (message: LogMessage) => void;
  /** The server's asks that belong to this request (see `inputFor`) go to these handlers. */
  input?: InputHandlers;
  /** Part of starting a (new) legacy session: never waits for a session recovery under way. */
  renewing?: boolean;
}

/** Modern versions this client speaks, best first. */
export const MODERN_VERSIONS: readonly string[] = [MODERN_VERSION];

export class ClientSession {
  era: Era = 'modern';
  protocolVersion: string = MODERN_VERSION;
  logLevel?: LogLevel;
  /** Legacy server-to-client requests answered so far (calls attribute the difference to themselves). */
  legacyAsks = 0;
  readonly catalog: ToolCatalog;
  readonly changeListeners = new Set<(n: JsonRpcNotification) => void>();
  private nextId = 0;
  private nextToken = 0;
  private readonly progress = new Map<string | number, ProgressCallback>();
  private readonly closing = new AbortController();
  /** Each request's controller while in flight: `close` aborts them (no listener per request on `closing`). */
  private readonly inFlight = new Set<AbortController>();
  /** Requests in flight that answer their own asks (`ExchangeOptions.input`), by id. */
  private readonly callInputs = new Map<RequestId, InputHandlers>();
  /** Aborted (with SessionLostError) when the server loses the legacy session; renewed with it. */
  private sessionAlive = new AbortController();
  private recovering?: Promise<void>;
  /** The session was lost and no new one is established yet. */
  private sessionPending = false;
  /**
   * Starts a new legacy session (a fresh `initialize`); set by ContextClient. Without it a lost
   * session surfaces as the server's 404.
   */
  renewSession?: () => Promise<void>;
  /** Server requests being answered by a handler, by id: notifications/cancelled aborts the handler's signal. */
  private readonly answering = new Map<RequestId, AbortController>();

  constructor(
    readonly transport: ClientTransport,
    readonly options: Readonly<ContextClientOptions>,
  ) {
    this.logLevel = options.logLevel;
    this.catalog = new ToolCatalog((m) => options.onWarning?.(m));
  }

  get capabilities(): ClientCapabilities {
    return declaredCapabilities(this.options, this.protocolVersion);
  }

  get clientInfo(): Implementation {
    return { ...this.options.clientInfo } as Implementation;
  }

  get closedSignal(): AbortSignal {
    return this.closing.signal;
  }

  /** Aborts when the legacy session is lost: what lived on it (a resource subscription) ends. */
  get sessionSignal(): AbortSignal {
    return this.sessionAlive.signal;
  }

  /** Messages the server starts (legacy asks and pings, unsolicited notifications). */
  readonly sink: InboundSink = {
    request: (m, related) => this.answerServerRequest(m, related),
    notification: (n) => this.notification(n),
  };

  /** A progress token for one call (kept across its rounds), released by the returned function. */
  progressToken(callback: ProgressCallback | undefined): { token?: string; release(): void } {
    const cb = callback ?? this.options.onProgress;
    if (!cb) return { release: () => undefined };
    const token = `omc-progress-${++this.nextToken}`;
    this.progress.set(token, cb);
    return { token, release: () => this.progress.delete(token) };
  }

  /** Sends one request and resolves with its result; JSON-RPC errors reject as ProtocolError. */
  async exchange(
    method: string,
    params: JsonObject,
    o: ExchangeOptions = {},
    versionRetry = true,
    sessionRetry = true,
  ): Promise<JsonObject> {
    // Sent during a recovery it would carry no session id at all: wait for the new session.
    if (!o.renewing) {
      if (this.recovering) await this.recovering.catch(() => undefined);
      // The last new session could not be had (the server refused it): try again before sending without one.
      else if (this.sessionPending) await this.renew();
    }
    const id = ++this.nextId;
    o.onId?.(id);
    const modern = this.era === 'modern';
    const wireParams = withTraceContext(modern
      ? withModernMeta(params, {
          protocolVersion: this.protocolVersion,
          capabilities: o.capabilities ?? this.capabilities,
          clientInfo: this.clientInfo,
          logLevel: this.logLevel,
          progressToken: o.progressToken,
        })
      : withLegacyMeta(params, o.progressToken));
    const headers = modern && this.transport.kind === 'http' ? this.headersFor(method, params) : undefined;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method, params: wireParams };
    if (o.input) this.callInputs.set(id, o.input);

    const controller = new AbortController();
    const timeoutMs = o.timeoutMs ?? this.options.requestTimeoutMs;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => controller.abort(new RequestTimeoutError(method, timeoutMs)), timeoutMs)
        : undefined;
    const onUserAbort = () => controller.abort(o.signal!.reason);
    if (o.signal?.aborted) onUserAbort();
    else o.signal?.addEventListener('abort', onUserAbort, { once: true });
    if (this.closing.signal.aborted) controller.abort(closedError());
    this.inFlight.add(controller);
    // Modern HTTP cancels by closing the response stream; everywhere else the server is told.
    const tellsServer = !(modern && this.transport.kind === 'http') && method !== 'initialize';
    const onAbort = () => {
      if (tellsServer && !this.closing.signal.aborted) {
        const reason = controller.signal.reason instanceof Error ? controller.signal.reason.message : 'cancelled';
        void this.transport
          .notify(
            { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } },
            this.notificationHeaders('notifications/cancelled'),
          )
          .catch(() => undefined);
      }
    };
    controller.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const { response, httpStatus, lostSession } = await this.transport.request(message, {
        signal: controller.signal,
        headers,
        onNotification: o.onNotification ?? ((n) => this.notification(n, o.onLog)),
      });
      // The server never ran a request on a session it no longer has: a new session, then once more.
      if (lostSession !== undefined && sessionRetry && this.renewSession && method !== 'initialize') {
        await this.recoverSession(lostSession);
        return await this.exchange(method, params, o, versionRetry, false);
      }
      if ('result' in response) {
        return modern ? checkedResultType(method, response.result, this.options.tasks) : response.result;
      }
      const retryVersion =
        modern && versionRetry && response.error.code === ErrorCode.UnsupportedProtocolVersion
          ? this.versionFrom(response.error.data)
          : undefined;
      if (retryVersion) {
        this.protocolVersion = retryVersion;
        return await this.exchange(method, params, o, false);
      }
      throw serverErrorOf(response.error, httpStatus);
    } catch (e) {
      // A call cut off with its session (not retried: it may have run): the next requests get a new one.
      if (e instanceof SessionLostError && e.sessionId !== undefined && this.renewSession)
        void this.recoverSession(e.sessionId).catch(() => undefined);
      throw e;
    } finally {
      if (o.input) this.callInputs.delete(id);
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onUserAbort);
      this.inFlight.delete(controller);
      controller.signal.removeEventListener('abort', onAbort);
    }
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    await this.transport.notify(
      { jsonrpc: '2.0', method, ...(params ? { params } : {}) },
      this.notificationHeaders(method),
    );
  }

  close(): void {
    this.closing.abort();
    for (const c of this.inFlight) c.abort(closedError());
  }

  /**
   * One recovery per lost session, however many requests learn of it: what lived on the session
   * ends (SessionLostError), then `renewSession` initializes a new one. A request that learns of a
   * loss already recovered from just waits for (or skips) that recovery.
   */
  private recoverSession(lost: string): Promise<void> {
    if (!this.transport.forgetSession?.(lost)) return this.recovering ?? Promise.resolve();
    const ended = this.sessionAlive;
    this.sessionAlive = new AbortController();
    ended.abort(new SessionLostError('what lived on it (subscriptions, asks being answered) ended'));
    this.sessionPending = true;
    return this.renew();
  }

  /** One `renewSession` at a time; until one succeeds, requests wait for a session rather than go without. */
  private renew(): Promise<void> {
    const recovering = this.renewSession!().then(
      () => {
        this.sessionPending = false;
      },
    ).finally(() => {
      if (this.recovering === recovering) this.recovering = undefined;
    });
    this.recovering = recovering;
    return recovering;
  }

  private headersFor(method: string, params: JsonObject): Record<string, string> {
    const name = params.name;
    const headerParams = method === 'tools/call' && typeof name === 'string' ? this.catalog.paramsFor(name) : [];
    return modernHeaders(this.protocolVersion, method, params, headerParams);
  }

  private notificationHeaders(method: string): Record<string, string> | undefined {
    return this.era === 'modern' && this.transport.kind === 'http'
      ? { 'MCP-Protocol-Version': this.protocolVersion, 'Mcp-Method': method }
      : undefined;
  }

  /** A modern version from -32022 `data.supported` that this client speaks. */
  private versionFrom(data: unknown): string | undefined {
    const supported = (data as { supported?: unknown } | undefined)?.supported;
    if (!Array.isArray(supported)) return undefined;
    return MODERN_VERSIONS.find((v) => supported.includes(v));
  }

  /**
   * Whose handlers answer a server request: the call whose response stream carried it (HTTP), else
   * the only call in flight with its own handlers (a stream names no related request), else the
   * client's. With several such calls in flight on a stream, the client's handlers answer it.
   */
  private inputFor(related: RequestId | undefined): InputHandlers {
    if (related !== undefined) return this.callInputs.get(related) ?? this.options;
    if (this.callInputs.size === 1) return this.callInputs.values().next().value!;
    return this.options;
  }

  private async answerServerRequest(m: JsonRpcRequest, related?: RequestId): Promise<JsonRpcResponse> {
    // Aborted when the session closes or the server cancels the request (it withdrew the question).
    const cancel = new AbortController();
    this.answering.set(m.id, cancel);
    try {
      const result = await answerInput(this.inputFor(related), m.method, m.params ?? {}, {
        era: this.era,
        // A handler answering an ask (a form on screen) hears when the session it came on is gone, or the
        // server cancels the question.
        signal: AbortSignal.any([this.closing.signal, this.sessionAlive.signal, cancel.signal]),
      });
      if (m.method !== 'ping') this.legacyAsks++;
      return success(m.id, result);
    } catch (e) {
      if (e instanceof MissingInputHandlerError) return failure(m.id, ErrorCode.MethodNotFound, e.message);
      if (e instanceof ProtocolError) return failure(m.id, e.code, e.message, e.data);
      return failure(m.id, ErrorCode.InternalError, e instanceof Error ? e.message : String(e));
    } finally {
      this.answering.delete(m.id);
    }
  }

  private notification(n: JsonRpcNotification, onLog = this.options.onLog): void {
    const params = n.params ?? {};
    if (n.method === 'notifications/cancelled') {
      const why = typeof params.reason === 'string' ? params.reason : 'The server cancelled its request.';
      this.answering.get(params.requestId as RequestId)?.abort(new Error(why));
      return;
    }
    if (n.method === 'notifications/progress') {
      const cb = this.progress.get(params.progressToken as string);
      if (cb && typeof params.progress === 'number') {
        cb({
          progress: params.progress,
          total: params.total as number | undefined,
          message: params.message as string | undefined,
        });
      }
      return;
    }
    if (n.method === 'notifications/message') {
      if (isLogLevel(params.level))
        onLog?.({ level: params.level, logger: params.logger as string | undefined, data: params.data });
      return;
    }
    for (const listener of this.changeListeners) listener(n);
  }
}

/**
 * 2026-07-28: a result whose resultType this client does not know MUST be considered invalid
 * (basic/index.mdx); absent means complete (an older modern server). `task` is known on
 * `tools/call` when the client declared the tasks extension (SEP-2663), and invalid elsewhere.
 */
function checkedResultType(method: string, result: JsonObject, tasks: boolean): JsonObject {
  const kind = result.resultType;
  if (kind === undefined || kind === 'complete' || kind === 'input_required') return result;
  if (kind === 'task' && tasks && method === 'tools/call') return result;
  throw new FrameworkError(
    'OMC_CLIENT_BAD_REPLY',
    `${method}: the server answered an unknown resultType ${JSON.stringify(kind)}; the result is invalid.`,
  );
}

function closedError(): FrameworkError {
  return new FrameworkError('OMC_CLIENT_CLOSED', 'The client closed.');
}
