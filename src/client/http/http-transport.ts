/**
 * Streamable HTTP client transport, both eras. Each request is a POST whose reply is JSON or an SSE
 * stream; legacy adds the session id, the version header, the GET stream, resumption with
 * Last-Event-ID after the server's `retry`, answers to server requests POSTed back, DELETE on close.
 */
import {
  decodeValue,
  failure,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from '../../protocol/jsonrpc';
import { ErrorCode } from '../../protocol/error-codes';
import { HttpStatusError, SessionLostError, transportError } from '../errors';
import { FrameworkError } from '../../errors/framework-error';
import type { ClientTransport, InboundSink, TransportReply, TransportRequestOptions } from '../transport';
import { readEventStream, type StreamPosition } from './read-event-stream';
import type { HttpTarget } from '../targets';
import { resolveOAuthOptions } from '../auth/auth-options';
import { OAuthSession } from '../auth/oauth-session';

interface Pending {
  resolve(reply: TransportReply): void;
  reject(error: unknown): void;
}

const DEFAULT_RETRY_MS = 1000;
const MAX_RESUMES = 5;

export class HttpTransport implements ClientTransport {
  readonly kind = 'http' as const;
  private sink?: InboundSink;
  private sessionId?: string;
  private legacyVersion?: string;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly live = new Set<AbortController>();
  private closed = false;
  private readonly fetch: typeof fetch;
  /** Signs in when the server asks (the target's `auth`). */
  readonly auth?: OAuthSession;

  constructor(private readonly target: HttpTarget) {
    const base = target.fetch ?? fetch;
    this.auth = target.auth ? new OAuthSession(target.url, resolveOAuthOptions(target.auth), base) : undefined;
    this.fetch = this.auth ? this.auth.fetch : base;
  }

  async start(sink: InboundSink): Promise<void> {
    this.sink = sink;
  }

  legacySessionStarted(protocolVersion: string): void {
    this.legacyVersion = protocolVersion;
  }

  forgetSession(sessionId: string): boolean {
    if (this.sessionId !== sessionId) return false;
    this.sessionId = undefined;
    this.legacyVersion = undefined;
    return true;
  }

  followServerStream(): void {
    void this.followGetStream();
  }

  request(message: JsonRpcRequest, options: TransportRequestOptions): Promise<TransportReply> {
    return new Promise<TransportReply>((resolve, reject) => {
      if (this.closed) return reject(transportError('The client is closed.'));
      const controller = this.controller(options.signal);
      this.pending.set(message.id, { resolve, reject });
      const settle = () => this.live.delete(controller);
      const sentWith = this.sessionId;
      void this.post(message, options.headers, controller.signal)
        .then((res) => this.readReply(res, message, options.onNotification, controller.signal, sentWith))
        .catch((e: unknown) => this.fail(message.id, controller.signal.aborted ? controller.signal.reason : e))
        .finally(settle);
    });
  }

  async notify(message: JsonRpcNotification, headers?: Record<string, string>): Promise<void> {
    const res = await this.post(message, headers);
    await res.body?.cancel().catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.live) c.abort(transportError('The client closed.'));
    for (const id of [...this.pending.keys()]) this.fail(id, transportError('The client closed.'));
    if (this.sessionId) {
      await this.fetch(this.target.url, {
        method: 'DELETE',
        headers: this.headers(),
        signal: AbortSignal.timeout(2000),
      })
        .then((r) => r.body?.cancel())
        .catch(() => undefined);
    }
  }

  private async readReply(
    res: Response,
    message: JsonRpcRequest,
    onNotification: TransportRequestOptions['onNotification'],
    signal: AbortSignal,
    sentWith: string | undefined,
  ): Promise<void> {
    if (res.status === 404 && sentWith !== undefined) return this.sessionGone(res, message, sentWith);
    const session = res.headers.get('mcp-session-id');
    if (message.method === 'initialize' && res.ok && session) this.sessionId = session;
    const type = res.headers.get('content-type') ?? '';
    if (res.ok && type.includes('text/event-stream') && res.body) {
      const dispatch = (m: unknown) => this.dispatch(m, res.status, onNotification, message.id);
      let position = await readEventStream(res.body, dispatch);
      if (signal.aborted) throw signal.reason;
      // Legacy resumability: a stream that ended before its response is picked up with GET + Last-Event-ID.
      for (let resume = 0; this.pending.has(message.id) && this.canResume(position) && resume < MAX_RESUMES; resume++) {
        await delay(position.retryMs ?? DEFAULT_RETRY_MS, signal);
        const again = await this.get(position.lastEventId, signal);
        if (again.status === 404 && sentWith !== undefined) {
          await again.body?.cancel().catch(() => undefined);
          const what = `${message.method} was in flight and may have run, so it was not retried`;
          return this.fail(message.id, new SessionLostError(what, sentWith));
        }
        if (!again.ok || !again.body) break;
        position = await readEventStream(again.body, dispatch, position);
        if (signal.aborted) throw signal.reason;
      }
      if (this.pending.has(message.id))
        this.fail(message.id, transportError(`The response stream for ${message.method} ended before its response.`));
      return;
    }
    const text = await res.text();
    const value = parseJson(text);
    if (Array.isArray(value)) value.forEach((v) => this.dispatch(v, res.status, onNotification));
    else if (isObject(value) && value.jsonrpc === '2.0') {
      // Transport-level errors (400 before the body was read) often carry id null.
      const fixed =
        'error' in value && (value.id === null || value.id === undefined) ? { ...value, id: message.id } : value;
      this.dispatch(fixed, res.status, onNotification);
    } else if (isObject(value) && res.ok) this.dispatch(value, res.status, onNotification);
    if (this.pending.has(message.id)) this.fail(message.id, new HttpStatusError(res.status, text));
  }

  /** The spec's answer to a request on a session the server no longer has: 404, the session is gone. */
  private async sessionGone(res: Response, message: JsonRpcRequest, sentWith: string): Promise<void> {
    await res.body?.cancel().catch(() => undefined);
    const p = this.pending.get(message.id);
    if (!p) return;
    this.pending.delete(message.id);
    const response = failure(message.id, ErrorCode.InvalidRequest, 'Session not found');
    p.resolve({ response, httpStatus: 404, lostSession: sentWith });
  }

  /** `related`: the request whose POST stream carried the message (server requests are attributed to it). */
  private dispatch(
    value: unknown,
    status: number,
    onNotification?: (n: JsonRpcNotification) => void,
    related?: RequestId,
  ): void {
    const d = decodeValue(value);
    if (d.kind === 'response') {
      const id = d.message.id;
      const p = id === null || id === undefined ? undefined : this.pending.get(id);
      if (p) {
        this.pending.delete(id!);
        p.resolve({ response: d.message, httpStatus: status });
      }
    } else if (d.kind === 'notification') {
      if (onNotification) onNotification(d.message);
      else this.sink?.notification(d.message);
    } else if (d.kind === 'request') {
      void this.answer(d.message, related);
    } else if (d.kind === 'invalid') {
      this.refuseMalformed(value, d.error.error.message);
    }
  }

  /** A malformed response to a request we sent fails that request now, rather than at its timeout. */
  private refuseMalformed(value: unknown, reason: string): void {
    if (!isObject(value) || value.method !== undefined) return;
    const id = value.id;
    if ((typeof id !== 'string' && typeof id !== 'number') || !this.pending.has(id)) return;
    this.fail(id, new FrameworkError('OMC_CLIENT_BAD_REPLY', `The server's reply to request ${id} is malformed (${reason}).`));
  }

  private async answer(request: JsonRpcRequest, related?: RequestId): Promise<void> {
    if (!this.sink) return;
    const reply = await this.sink.request(request, related);
    if (this.closed) return;
    const res = await this.post(reply).catch(() => undefined);
    await res?.body?.cancel().catch(() => undefined);
  }

  /** The legacy standalone GET stream: server requests and notifications outside any call. */
  private async followGetStream(): Promise<void> {
    let position: StreamPosition = {};
    for (let attempt = 0; !this.closed && attempt < MAX_RESUMES; attempt++) {
      const controller = this.controller();
      try {
        const res = await this.get(position.lastEventId, controller.signal);
        if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
          await res.body?.cancel().catch(() => undefined);
          return; // 405: the server offers no GET stream.
        }
        const before = position.lastEventId;
        position = await readEventStream(res.body, (m) => this.dispatch(m, res.status), position);
        if (position.lastEventId !== before) attempt = 0;
        if (!this.canResume(position)) return;
        await delay(position.retryMs ?? DEFAULT_RETRY_MS, controller.signal);
      } catch {
        return;
      } finally {
        this.live.delete(controller);
      }
    }
  }

  private canResume(position: StreamPosition): position is StreamPosition & { lastEventId: string } {
    return !this.closed && this.legacyVersion !== undefined && position.lastEventId !== undefined;
  }

  private get(lastEventId: string | undefined, signal?: AbortSignal): Promise<Response> {
    const headers = this.headers({ accept: 'text/event-stream' });
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    return this.fetch(this.target.url, { method: 'GET', headers, signal });
  }

  private post(message: JsonRpcMessage, extra?: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const headers = this.headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...lower(extra),
    });
    return this.fetch(this.target.url, { method: 'POST', headers, body: JSON.stringify(message), signal });
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = { ...lower(this.target.headers), ...extra };
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    if (this.legacyVersion) h['mcp-protocol-version'] = this.legacyVersion;
    return h;
  }

  private controller(linked?: AbortSignal): AbortController {
    const c = new AbortController();
    if (linked?.aborted) c.abort(linked.reason);
    else linked?.addEventListener('abort', () => c.abort(linked.reason), { once: true });
    this.live.add(c);
    return c;
  }

  private fail(id: RequestId, error: unknown): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    p.reject(error);
  }
}

function lower(h: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
