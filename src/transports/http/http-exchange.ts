/**
 * What the endpoint needs from an HTTP server, and nothing more: the request's method, path,
 * headers and body, and a response that is either one message or a stream. node:http, Express,
 * Fastify and the fetch API each implement it in a few lines.
 */

/** Header names lowercase, as node:http gives them. */
export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

export type BodyRead = { ok: true; text: string } | { ok: false; status: 400 | 413; reason: string };

export type BodySource =
  | { kind: 'raw'; read(limitBytes: number): Promise<BodyRead> }
  /** A framework already parsed the JSON body. */
  | { kind: 'parsed'; value: unknown };

export interface HttpRequestView {
  readonly method: string;
  readonly headers: HeaderBag;
  readonly body: BodySource;
  /** The peer's address on the socket (undefined where the server does not give it, e.g. fetch). */
  readonly remoteAddress?: string;
}

export interface StreamSink {
  write(text: string): void;
  end(): void;
}

export interface ResponseSink {
  /** True once the client went away before the response was complete. */
  readonly gone: boolean;
  /** Runs once when the client goes away before the response is complete (or at once if it already has). */
  onGone(listener: () => void): void;
  /** A complete response. */
  send(status: number, headers: Record<string, string>, body?: string): void;
  /** Starts a streamed response (SSE). */
  openStream(status: number, headers: Record<string, string>): StreamSink;
}

/** The first value of a header, or undefined. */
export function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * `header(headers, name)` for a value read at the caller with a literal name (`firstOf(headers.host)`).
 * The headers every request reads do so: such a site sees one name and, request after request, the same
 * shape of header object, where the shared `headers[name]` in `header` sees every name (a megamorphic
 * keyed load each time).
 */
export function firstOf(v: string | readonly string[] | undefined): string | undefined {
  return typeof v === 'string' || v === undefined ? v : v[0];
}
