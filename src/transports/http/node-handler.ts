/**
 * `createNodeHandler(app, options)`: a `(req, res, parsedBody?)` function for node:http and for
 * frameworks built on it. Requests for another path get 404; pass `parsedBody` when a framework
 * already parsed the JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EndpointHost } from '../../server/server-endpoint';
import { ErrorCode } from '../../protocol/error-codes';
import { hostPolicy } from './host-guard';
import { HttpEndpoint } from './http-endpoint';
import { isValidatedOptions } from '../../config/validate-options';
import { HttpOptions, validateHttpOptions } from './http-options';
import { nodeRequestView, nodeResponseSink } from './node-exchange';
import { noId, sendError } from './responses';

/** What a handler shows of the endpoint behind it: its options, and graceful shutdown. */
export interface HttpEndpointHandle {
  readonly options: Readonly<HttpOptions>;
  /** Stop taking requests, end long-lived streams, let in-flight calls finish (until the deadline). */
  shutdown(deadlineMs: number): Promise<void>;
}

export type NodeHandler = ((req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => void) & {
  /** The endpoint behind the handler (graceful shutdown, tests). */
  readonly endpoint: HttpEndpointHandle;
};

export function createNodeHandler(
  app: EndpointHost,
  options: Partial<HttpOptions> | Readonly<HttpOptions> = {},
): NodeHandler {
  const frozen = isValidatedOptions(options, HttpOptions) ? options : validateHttpOptions(options);
  return nodeHandlerFor(new HttpEndpoint(app.endpoint, frozen, hostPolicy(frozen)), { matchPath: true });
}

/** Wraps an endpoint; `matchPath: false` when a router already matched the path. */
export function nodeHandlerFor(endpoint: HttpEndpoint, { matchPath }: { matchPath: boolean }): NodeHandler {
  const handler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): void => {
    // Draining: every answer closes its connection (`Connection: close`), so a proxy never sends on
    // one the server is about to close; the endpoint's quiet wait counts only earlier requests.
    if (endpoint.draining) res.shouldKeepAlive = false;
    const sink = nodeResponseSink(res);
    if (matchPath) {
      const path = pathOf(req.url);
      if (path !== endpoint.options.path) {
        const token = endpoint.approvalToken(path);
        if (token !== undefined) {
          void endpoint.answerApprovalPage(req.method ?? 'GET', token, req.headers, nodeRequestView(req).body, sink);
          return;
        }
        if (endpoint.answerOtherPath(req.method ?? 'GET', path, req.headers, sink)) return;
        return sendError(sink, 404, noId(req.headers), ErrorCode.InvalidRequest, 'Not Found');
      }
    }
    void endpoint.serve(nodeRequestView(req, parsedBody), sink);
  };
  return Object.assign(handler, { endpoint });
}

/** The path of a request URL, without query or fragment. */
export function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const q = url.indexOf('?');
  const h = url.indexOf('#');
  const end = q < 0 ? h : h < 0 ? q : Math.min(q, h);
  return end < 0 ? url : url.slice(0, end);
}
