/**
 * How the HTTP transport sends one request and reads its reply, whatever carries it: node:http on
 * a keep-alive pool of its own (node-channel.ts, the default), or a `fetch` (the target's own, or
 * the OAuth session's wrapper).
 */

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface HttpReply {
  readonly status: number;
  readonly ok: boolean;
  /** A response header (lower-case name), or undefined. */
  header(name: string): string | undefined;
  /** The body as it arrives (an SSE stream is read this way); ends early if the connection drops. */
  readonly body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
  /** The body is not wanted: drained or dropped (the connection returns to its pool when it can). */
  discard(): Promise<void>;
}

export interface HttpChannel {
  /** `signal` aborts the request and the reading of its body. */
  send(method: HttpMethod, headers: Record<string, string>, body?: string, signal?: AbortSignal): Promise<HttpReply>;
  /** Ends every request in flight and closes the pooled connections. */
  close(): void;
}

/** Requests through a `fetch`: what the target supplies, or the OAuth session's wrapper. */
export function fetchChannel(url: string, fetchFn: typeof fetch): HttpChannel {
  return {
    async send(method, headers, body, signal) {
      const res = await fetchFn(url, { method, headers, body, signal });
      return {
        status: res.status,
        ok: res.ok,
        header: (name) => res.headers.get(name) ?? undefined,
        body: (res.body ?? emptyBody()) as unknown as AsyncIterable<Uint8Array>,
        text: () => res.text(),
        discard: async () => void (await res.body?.cancel().catch(() => undefined)),
      };
    },
    // fetch pools its own connections; each request in flight is ended by its signal.
    close() {},
  };
}

async function* emptyBody(): AsyncIterable<Uint8Array> {}
