/** node:http request/response as the endpoint's HttpRequestView and ResponseSink. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readNodeBody } from './body-reader';
import type { HttpRequestView, ResponseSink, StreamSink } from './http-exchange';

export function nodeRequestView(req: IncomingMessage, parsedBody?: unknown): HttpRequestView {
  return {
    method: req.method ?? 'GET',
    headers: req.headers,
    body:
      parsedBody === undefined
        ? { kind: 'raw', read: (limit) => readNodeBody(req, limit) }
        : { kind: 'parsed', value: parsedBody },
  };
}

export function nodeResponseSink(res: ServerResponse): ResponseSink {
  let gone = false;
  const listeners: Array<() => void> = [];
  res.once('close', () => {
    if (res.writableFinished) return;
    gone = true;
    for (const l of listeners.splice(0)) l();
  });
  return {
    get gone() {
      return gone || res.destroyed;
    },
    onGone(listener) {
      if (gone) listener();
      else listeners.push(listener);
    },
    send(status, headers, body) {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(
        status,
        body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      );
      res.end(body);
    },
    openStream(status, headers): StreamSink {
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
    },
  };
}
