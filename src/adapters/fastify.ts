/**
 * `mcpFastify(app, options)`: a Fastify plugin serving the MCP endpoint at `options.path`.
 * Inside the plugin's own scope the body is left unparsed so our limits and strict decoding
 * apply; the reply is hijacked and written by the endpoint. Type-only import of Fastify.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { EndpointHost } from '../server/server-endpoint';
import { hostPolicy } from '../transports/http/host-guard';
import { HttpEndpoint } from '../transports/http/http-endpoint';
import { validateHttpOptions, type HttpOptions } from '../transports/http/http-options';
import { nodeRequestView, nodeResponseSink } from '../transports/http/node-exchange';
import { nodeHandlerFor, pathOf, type HttpEndpointHandle } from '../transports/http/node-handler';

export type McpFastifyPlugin = FastifyPluginAsync & { readonly endpoint: HttpEndpointHandle };

export function mcpFastify(app: EndpointHost, options: Partial<HttpOptions> = {}): McpFastifyPlugin {
  const opts = validateHttpOptions(options);
  const endpoint = new HttpEndpoint(app.endpoint, opts, hostPolicy(opts));
  const handle = nodeHandlerFor(endpoint, { matchPath: false });
  const plugin = async (fastify: FastifyInstance): Promise<void> => {
    fastify.removeAllContentTypeParsers();
    // Leave the stream unread: the endpoint reads it under its own byte cap.
    fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    fastify.route({
      method: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      url: opts.path,
      handler: (request, reply) => {
        reply.hijack();
        handle(request.raw, reply.raw);
      },
    });
    // The approval pages (`asks` fallback approvalPage) under the endpoint's path; the body stays unread here too.
    fastify.route({
      method: ['GET', 'POST'],
      url: `${opts.path.replace(/\/+$/, '')}/approval/*`, // a wildcard: a token is longer than maxParamLength
      handler: (request, reply) => {
        reply.hijack();
        const token = endpoint.approvalToken(pathOf(request.raw.url));
        const sink = nodeResponseSink(reply.raw);
        const body = nodeRequestView(request.raw).body;
        void endpoint.answerApprovalPage(request.method, token ?? '', request.raw.headers, body, sink);
      },
    });
    // Protected resource metadata (an OAuth resource only): register the plugin without a prefix to serve it
    // at the root.
    for (const path of endpoint.metadataPaths) {
      fastify.route({
        method: ['GET', 'OPTIONS'],
        url: path,
        handler: (request, reply) => {
          reply.hijack();
          endpoint.answerOtherPath(request.method, path, request.raw.headers, nodeResponseSink(reply.raw));
        },
      });
    }
  };
  return Object.assign(plugin, { endpoint });
}
