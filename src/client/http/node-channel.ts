/**
 * The default way the HTTP client transport sends: node:http(s) on a keep-alive pool that belongs
 * to this one transport (one client, or one mounted upstream), closed with it. Node 20's global
 * `fetch` cost about 5× the CPU per request (WHATWG streams for each body, a request object, a
 * shared global pool that outlives the client); this is the bridge's per-call path (issue 34).
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { FrameworkError } from '../../errors/framework-error';
import type { HttpChannel, HttpMethod, HttpReply } from './http-channel';

/**
 * How long an idle pooled connection is kept. A server's shorter `Keep-Alive: timeout` hint wins
 * (less a second), so the client lets a connection go before the server closes it under a request.
 */
const IDLE_MS = 4_000;

export class NodeHttpChannel implements HttpChannel {
  private readonly url: URL;
  private readonly agent: HttpAgent;
  private readonly request: typeof httpRequest;
  private readonly inFlight = new Set<ClientRequest>();
  private closed = false;

  constructor(url: string) {
    this.url = new URL(url);
    const tls = this.url.protocol === 'https:';
    // Not capped: a call's reply stream (an SSE reply waiting on an ask's answer, a change stream)
    // holds its connection while it lasts, and a cap would queue the answer behind the calls that
    // wait for it. Idle connections beyond what the load needs close after IDLE_MS.
    const options = { keepAlive: true, timeout: IDLE_MS, scheduling: 'lifo' as const };
    this.agent = tls ? new HttpsAgent(options) : new HttpAgent(options);
    this.request = (tls ? httpsRequest : httpRequest) as typeof httpRequest;
  }

  send(method: HttpMethod, headers: Record<string, string>, body?: string, signal?: AbortSignal): Promise<HttpReply> {
    return new Promise<HttpReply>((resolve, reject) => {
      if (this.closed) return reject(new FrameworkError('OMC_TRANSPORT', 'The client is closed.'));
      if (signal?.aborted) return reject(signal.reason);
      const sized = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const req = this.request(this.url, { method, headers: sized, agent: this.agent });
      this.inFlight.add(req);
      // Destroyed without an error: one passed on would reach the socket, which may already be back
      // in the pool (a reply that ended as the call was aborted) with no one listening.
      const onAbort = () => req.destroy();
      signal?.addEventListener('abort', onAbort, { once: true });
      // 'close' comes once the reply is read to its end, or the request or connection ended early.
      req.once('close', () => {
        this.inFlight.delete(req);
        signal?.removeEventListener('abort', onAbort);
      });
      req.on('error', (e) => reject(signal?.aborted ? signal.reason : this.failure(method, e)));
      req.once('response', (res) => {
        // A connection that drops mid-body ends the body's reading (its reader sees the error).
        res.on('error', () => undefined);
        resolve(new NodeReply(res));
      });
      req.end(body);
    });
  }

  close(): void {
    this.closed = true;
    for (const req of this.inFlight) req.destroy();
    this.agent.destroy();
  }

  private failure(method: HttpMethod, e: Error & { code?: string }): FrameworkError {
    const why = e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message;
    return new FrameworkError('OMC_TRANSPORT', `${method} ${this.url.href} failed: ${why}.`, { cause: e });
  }
}

class NodeReply implements HttpReply {
  readonly status: number;
  readonly ok: boolean;

  constructor(private readonly res: IncomingMessage) {
    this.status = res.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
  }

  header(name: string): string | undefined {
    const v = this.res.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  get body(): AsyncIterable<Uint8Array> {
    return this.res;
  }

  text(): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      this.res.on('data', (c: Buffer) => chunks.push(c));
      this.res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      this.res.once('error', reject);
      this.res.once('close', () => {
        if (!this.res.complete) reject(new FrameworkError('OMC_TRANSPORT', 'The connection closed mid-reply.'));
      });
    });
  }

  async discard(): Promise<void> {
    // Read to the end and dropped: the connection goes back to the pool (a reply stream still
    // open keeps it until the server ends it; the transport's close ends those).
    this.res.resume();
  }
}
