/**
 * Streamable HTTP client transport, both eras. Each request is a POST whose reply is JSON or an SSE
 * stream; legacy adds the session id, the version header, the GET stream, resumption with
 * Last-Event-ID after the server's `retry`, answers to server requests POSTed back, DELETE on close.
 * Requests go over node:http on a keep-alive pool of this transport's own (closed with it), or
 * through the target's `fetch` / the OAuth session's wrapper when there is one.
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
import { fetchChannel, type HttpChannel, type HttpReply } from './http-channel';
import { NodeHttpChannel } from './node-channel';
import { abortableSleep as delay } from '../abortable-sleep';
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
  /** Requests in flight (and the GET stream): aborted when the transport closes. */
  private readonly live = new Set<AbortController>();
  private closed = false;
  private readonly channel: HttpChannel;
  /** The target's headers, lower-cased once. */
  private readonly baseHeaders: Record<string, string>;
  /** Signs in when the server asks (the target's `auth`). */
  readonly auth?: OAuthSession;

  constructor(target: HttpTarget) {
    this.auth = target.auth
      ? new OAuthSession(target.url, resolveOAuthOptions(target.auth), target.fetch ?? fetch)
      : undefined;
    const viaFetch = this.auth?.fetch ?? target.fetch;
    this.channel = viaFetch ? fetchChannel(target.url, viaFetch) : new NodeHttpChannel(target.url);
    this.baseHeaders = lower(target.headers);
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
      const call = this.track(options.signal);
      this.pending.set(message.id, { resolve, reject });
      const sentWith = this.sessionId;
      void this.post(message, options.headers, call.signal)
        .then((res) => this.readReply(res, message, options.onNotification, call.signal, sentWith))
        .catch((e: unknown) => this.fail(message.id, call.signal.aborted ? call.signal.reason : e))
        .finally(call.done);
    });
  }

  async notify(message: JsonRpcNotification, headers?: Record<string, string>): Promise<void> {
    const res = await this.post(message, headers);
    await res.discard();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.live) c.abort(transportError('The client closed.'));
    for (const id of [...this.pending.keys()]) this.fail(id, transportError('The client closed.'));
    if (this.sessionId) {
      await this.channel
        .send('DELETE', this.headers(), undefined, AbortSignal.timeout(2000))
        .then((r) => r.discard())
        .catch(() => undefined);
    }
    this.channel.close();
  }

  private async readReply(
    res: HttpReply,
    message: JsonRpcRequest,
    onNotification: TransportRequestOptions['onNotification'],
    signal: AbortSignal,
    sentWith: string | undefined,
  ): Promise<void> {
    if (res.status === 404 && sentWith !== undefined) return this.sessionGone(res, message, sentWith);
    const session = res.header('mcp-session-id');
    if (message.method === 'initialize' && res.ok && session) this.sessionId = session;
    const type = res.header('content-type') ?? '';
    if (res.ok && type.includes('text/event-stream')) {
      const dispatch = (m: unknown) => this.dispatch(m, res.status, onNotification, message.id);
      let position = await readEventStream(res.body, dispatch);
      if (signal.aborted) throw signal.reason;
      // Legacy resumability: a stream that ended before its response is picked up with GET + Last-Event-ID.
      for (let resume = 0; this.pending.has(message.id) && this.canResume(position) && resume < MAX_RESUMES; resume++) {
        await delay(position.retryMs ?? DEFAULT_RETRY_MS, signal);
        const again = await this.get(position.lastEventId, signal);
        if (again.status === 404 && sentWith !== undefined) {
          await again.discard();
          const what = `${message.method} was in flight and may have run, so it was not retried`;
          return this.fail(message.id, new SessionLostError(what, sentWith));
        }
        if (!again.ok) {
          await again.discard();
          break;
        }
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
  private async sessionGone(res: HttpReply, message: JsonRpcRequest, sentWith: string): Promise<void> {
    await res.discard();
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
    await res?.discard();
  }

  /** The legacy standalone GET stream: server requests and notifications outside any call. */
  private async followGetStream(): Promise<void> {
    let position: StreamPosition = {};
    for (let attempt = 0; !this.closed && attempt < MAX_RESUMES; attempt++) {
      const call = this.track();
      try {
        const res = await this.get(position.lastEventId, call.signal);
        if (!res.ok || !(res.header('content-type') ?? '').includes('text/event-stream')) {
          await res.discard();
          return; // 405: the server offers no GET stream.
        }
        const before = position.lastEventId;
        position = await readEventStream(res.body, (m) => this.dispatch(m, res.status), position);
        if (position.lastEventId !== before) attempt = 0;
        if (!this.canResume(position)) return;
        await delay(position.retryMs ?? DEFAULT_RETRY_MS, call.signal);
      } catch {
        return;
      } finally {
        call.done();
      }
    }
  }

  private canResume(position: StreamPosition): position is StreamPosition & { lastEventId: string } {
    return !this.closed && this.legacyVersion !== undefined && position.lastEventId !== undefined;
  }

  private get(lastEventId: string | undefined, signal?: AbortSignal): Promise<HttpReply> {
    const headers = this.headers({ accept: 'text/event-stream' });
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    return this.channel.send('GET', headers, undefined, signal);
  }

  private post(message: JsonRpcMessage, extra?: Record<string, string>, signal?: AbortSignal): Promise<HttpReply> {
    const headers = this.headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...lower(extra),
    });
    return this.channel.send('POST', headers, JSON.stringify(message), signal);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = { ...this.baseHeaders, ...extra };
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    if (this.legacyVersion) h['mcp-protocol-version'] = this.legacyVersion;
    return h;
  }

  /**
   * A request's own signal, aborted by the caller's (`linked`) or by close. `done` unhooks it from
   * both, so a long-lived caller signal does not collect a listener per request.
   */
  private track(linked?: AbortSignal): { signal: AbortSignal; done: () => void } {
    const c = new AbortController();
    const onAbort = () => c.abort(linked!.reason);
    if (linked?.aborted) c.abort(linked.reason);
    else linked?.addEventListener('abort', onAbort, { once: true });
    this.live.add(c);
    return {
      signal: c.signal,
      done: () => {
        linked?.removeEventListener('abort', onAbort);
        this.live.delete(c);
      },
    };
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
