/** node:http request/response as the endpoint's HttpRequestView and ResponseSink. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { lingerIfIncomplete } from './lingering-close';
import { readNodeBody } from './node-body';
import type { BodyRead, HttpRequestView, ResponseSink, StreamSink } from './http-exchange';

export function nodeRequestView(req: IncomingMessage, parsedBody?: unknown): HttpRequestView {
  return {
    method: req.method ?? 'GET',
    headers: req.headers,
    remoteAddress: req.socket.remoteAddress,
    body: parsedBody === undefined ? new NodeBody(req) : { kind: 'parsed', value: parsedBody },
  };
}

/** The unread body of a node:http request: one object, no closure per request. */
class NodeBody {
  readonly kind = 'raw' as const;
  constructor(private readonly req: IncomingMessage) {}
  read(limit: number): Promise<BodyRead> {
    return readNodeBody(this.req, limit);
  }
}

export function nodeResponseSink(res: ServerResponse): ResponseSink {
  return new NodeResponseSink(res);
}

/**
 * A class rather than an object literal with closures: one object per response, and the `close`
 * listener is added only once someone asks to hear the client leave (a plain JSON reply never does).
 */
class NodeResponseSink implements ResponseSink {
  private left = false;
  private listeners?: Array<() => void>;

  constructor(private readonly res: ServerResponse) {}

  get gone(): boolean {
    return this.left || this.res.destroyed;
  }

  onGone(listener: () => void): void {
    if (this.left) return listener();
    if (this.listeners) return void this.listeners.push(listener);
    this.listeners = [listener];
    this.res.once('close', () => {
      if (this.res.writableFinished) return;
      this.left = true;
      for (const l of this.listeners!.splice(0)) l();
    });
  }

  send(status: number, headers: Record<string, string>, body?: string): void {
    const res = this.res;
    if (res.headersSent || res.destroyed) return;
    if (body === undefined) res.writeHead(status, headers);
    else {
      // Node takes a flat [name, value, …] list: no merged header object per response.
      const flat: string[] = [];
      for (const name in headers) flat.push(name, headers[name]!);
      flat.push('Content-Length', String(Buffer.byteLength(body)));
      res.writeHead(status, flat);
    }
    // Answered before the request was all read (413, or before the body was read): a close lingers.
    if (!res.req.complete) lingerIfIncomplete(res);
    res.end(body);
  }

  openStream(status: number, headers: Record<string, string>): StreamSink {
    const res = this.res;
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(status, headers);
      res.flushHeaders();
    }
    return {
      write: (text) => {
        if (!res.destroyed && !res.writableEnded) res.write(text);
      },
      end: () => {
        if (!res.writableEnded) res.end();
      },
    };
  }
}
