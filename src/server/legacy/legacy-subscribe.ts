/** `resources/subscribe` and `resources/unsubscribe` on a legacy session. */
import { ProtocolError } from '../../errors/protocol-error';
import { ErrorCode } from '../../protocol/error-codes';
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc';
import type { ServerCore } from '../core/server-core';
import { knownTo } from '../methods/guarded';
import type { RequestIO } from '../request/request-io';
import { resourceUri } from '../request/resource-uri';
import type { LegacySession } from './legacy-session';

/** Subscribes only to what exists (a fixed resource or a template match), up to the per-session caps. */
export async function legacySubscription(
  core: ServerCore,
  session: LegacySession,
  req: JsonRpcRequest,
  io: RequestIO,
): Promise<JsonObject> {
  const { method, params } = req;
  const uri = resourceUri(params, method, core.options.maxUriLength);
  if (method === 'resources/unsubscribe') {
    session.unsubscribe(uri);
    return {};
  }
  if (session.isSubscribed(uri)) return {};
  const fixed = core.registry.resource(uri);
  const def = fixed ?? core.registry.matchTemplate(uri)?.def;
  const notFound = () => new ProtocolError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
  if (!def) throw notFound();
  // A resource its guards hide from this caller is not found here either.
  const pipe = core.pipelines.of(def);
  const kind = fixed ? 'resource' : 'resourceTemplate';
  if (pipe && !(await knownTo({ def, kind, method, target: uri, pipe }, req, session.scope(params), io))) {
    throw notFound();
  }
  const max = core.options.maxSubscriptionsPerSession;
  if (session.subscriptionCount >= max) {
    throw ProtocolError.invalidRequest(
      `resources/subscribe: this session already holds ${max} subscriptions (maxSubscriptionsPerSession); unsubscribe first`,
    );
  }
  // Counted in bytes too: with the session caps, this bounds what a principal's sessions hold.
  const maxBytes = core.options.maxSubscriptionUriBytes;
  let bytes = Buffer.byteLength(uri);
  for (const held of session.subscribedUris()) bytes += Buffer.byteLength(held);
  if (bytes > maxBytes) {
    throw ProtocolError.invalidRequest(
      `resources/subscribe: this session's subscriptions would take more than ${maxBytes} bytes of URIs ` +
        '(maxSubscriptionUriBytes); unsubscribe first',
    );
  }
  session.subscribe(uri, core.registry.watchResource(uri));
  return {};
}

