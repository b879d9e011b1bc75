/**
 * `createFetchHandler(app, options)`: the MCP endpoint as a web-standard `(Request) => Promise<Response>`
 * for Hono, Bun, Deno and edge runtimes. SSE answers are a ReadableStream; the client going away
 * (request signal, or the body stream cancelled) is cancellation, as on node:http.
 */
import type { EndpointHost } from '../server/server-endpoint';
import { decodeUtf8 } from '../transports/http/body-reader';
import { hostPolicy } from '../transports/http/host-guard';
import type { BodyRead, HttpRequestView, ResponseSink } from '../transports/http/http-exchange';
import { HttpEndpoint } from '../transports/http/http-endpoint';
import type { HttpEndpointHandle } from '../transports/http/node-handler';
import { validateHttpOptions, type HttpOptions } from '../transports/http/http-options';

export type FetchHandler = ((request: Request) => Promise<Response>) & { readonly endpoint: HttpEndpointHandle };

export function createFetchHandler(app: EndpointHost, options: Partial<HttpOptions> = {}): FetchHandler {
  const opts = validateHttpOptions(options);
  const endpoint = new HttpEndpoint(app.endpoint, opts, hostPolicy(opts));
  // The fingerprint draws an ephemeral key now. An edge runtime builds this handler in its global scope,
  // where Workers refuse random bytes: an app without requestStateKey fails here, at start-up, naming
  // the option, instead of every isolate sealing with a key of its own (docs/transports.md).
  app.endpoint.settings.stateKeyFingerprint();
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const other = url.pathname !== opts.path;
    const approvalToken = other ? endpoint.approvalToken(url.pathname) : undefined;
    if (other && approvalToken === undefined && !endpoint.servesMetadataAt(url.pathname)) {
      return new Response(null, { status: 404 });
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
    headers.host ??= url.host;
    if (approvalToken !== undefined) {
      let page!: Response;
      const body = { kind: 'raw' as const, read: (limit: number) => readFetchBody(request, limit) };
      const sink = fetchSink(request, (r) => (page = r));
      await endpoint.answerApprovalPage(request.method, approvalToken, headers, body, sink);
      return page;
    }
    if (other) {
      let metadata!: Response;
      endpoint.answerOtherPath(request.method, url.pathname, headers, fetchSink(request, (r) => (metadata = r)));
      return metadata;
    }
    const view: HttpRequestView = {
      method: request.method,
      headers,
      body: { kind: 'raw', read: (limit) => readFetchBody(request, limit) },
    };
    let respond!: (r: Response) => void;
    const response = new Promise<Response>((resolve) => (respond = resolve));
    const sink = fetchSink(request, respond);
    void endpoint.handle(view, sink).then(() => respond(new Response(null, { status: 500 })));
    return response;
  };
  return Object.assign(handler, { endpoint });
}

function fetchSink(request: Request, respond: (r: Response) => void): ResponseSink {
  let gone = false;
  let finished = false;
  const listeners: Array<() => void> = [];
  const leave = () => {
    if (gone || finished) return;
    gone = true;
    for (const l of listeners.splice(0)) l();
  };
  request.signal?.addEventListener('abort', leave, { once: true });
  const encoder = new TextEncoder();
  return {
    get gone() {
      return gone;
    },
    onGone(listener) {
      if (gone) listener();
      else listeners.push(listener);
    },
    send(status, headers, body) {
      finished = true;
      respond(new Response(status === 204 || status === 304 ? null : (body ?? null), { status, headers }));
    },
    openStream(status, headers) {
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const stream = new ReadableStream<Uint8Array>({
        start: (c) => void (controller = c),
        cancel: () => leave(),
      });
      respond(new Response(stream, { status, headers }));
      return {
        write: (text) => {
          if (!gone && !finished) controller.enqueue(encoder.encode(text));
        },
        end: () => {
          if (finished) return;
          finished = true;
          if (!gone) controller.close();
        },
      };
    },
  };
}

async function readFetchBody(request: Request, limit: number): Promise<BodyRead> {
  const tooLarge: BodyRead = { ok: false, status: 413, reason: `Request body larger than ${limit} bytes` };
  if (Number(request.headers.get('content-length') ?? 0) > limit) return tooLarge;
  if (!request.body) return decodeUtf8(new Uint8Array(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => undefined);
        return tooLarge;
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, status: 400, reason: 'Request body could not be read' };
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return decodeUtf8(all);
}
