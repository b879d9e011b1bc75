/**
 * `mcpExpress(app, options)`: Express middleware serving the MCP endpoint at `options.path`
 * (relative to where it is mounted). Works with or without `express.json()` in front of it; behind
 * one, `maxBodyBytes` still holds (the parsed body is measured: a larger parser limit is no way around it).
 * Type-only import: Express stays the user's dependency, not ours.
 */
import type { NextFunction, Request, Response } from 'express';
import type { EndpointHost } from '../server/server-endpoint';
import { hostPolicy } from '../transports/http/host-guard';
import { HttpEndpoint } from '../transports/http/http-endpoint';
import { validateHttpOptions, type HttpOptions } from '../transports/http/http-options';
import { nodeRequestView, nodeResponseSink } from '../transports/http/node-exchange';
import { nodeHandlerFor, pathOf, type HttpEndpointHandle } from '../transports/http/node-handler';

export type McpExpressMiddleware = ((req: Request, res: Response, next: NextFunction) => void) & {
  readonly endpoint: HttpEndpointHandle;
};

export function mcpExpress(app: EndpointHost, options: Partial<HttpOptions> = {}): McpExpressMiddleware {
  const opts = validateHttpOptions(options);
  const endpoint = new HttpEndpoint(app.endpoint, opts, hostPolicy(opts));
  const handle = nodeHandlerFor(endpoint, { matchPath: false });
  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (req.path !== opts.path) {
      const token = endpoint.approvalToken(req.path);
      if (token !== undefined) {
        // A form parser in front (express.urlencoded) already read the body: take its result.
        const parsed = req.readableEnded && req.body !== undefined ? req.body : undefined;
        const body = nodeRequestView(req, parsed).body;
        void endpoint.answerApprovalPage(req.method, token, req.headers, body, nodeResponseSink(res));
        return;
      }
      // Protected resource metadata lives at the host root: mount the middleware at the root to serve it.
      const path = pathOf(req.originalUrl);
      if (!endpoint.servesMetadataAt(path)) return next();
      endpoint.answerOtherPath(req.method, path, req.headers, nodeResponseSink(res));
      return;
    }
    // A body parser in front already consumed the stream: take its result; otherwise read it ourselves.
    const parsed = req.readableEnded && req.body !== undefined ? req.body : undefined;
    handle(req, res, parsed);
  };
  return Object.assign(middleware, { endpoint });
}
