/**
 * Whether a listen stream's caller may hear that a resource changed: the resource's guards, asked
 * as for a list (the check legacy `resources/subscribe` makes), at each update — a caller the
 * guards refuse never receives an update of a hidden resource, whatever URI it subscribed to.
 * Keeps only the caller's IO and a minimal scope, not the listen request.
 */
import type { JsonRpcRequest } from '../../protocol/jsonrpc';
import { MODERN_VERSION } from '../../protocol/versions';
import type { ServerCore } from '../core/server-core';
import { knownTo } from '../methods/guarded';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';
import type { UriVisibility } from './subscriptions';

const SCOPE: RequestScope = { era: 'modern', protocolVersion: MODERN_VERSION, clientCapabilities: {} };

export function listenVisibility(core: ServerCore, io: RequestIO): UriVisibility {
  return (uri) => {
    const fixed = core.registry.resource(uri);
    const def = fixed ?? core.registry.matchTemplate(uri)?.def;
    if (!def) return true; // no resource answers it: no guard to ask
    const pipe = core.pipelines.of(def);
    if (!pipe || pipe.guards.length === 0) return true;
    const method = 'subscriptions/listen';
    const req: JsonRpcRequest = { jsonrpc: '2.0', id: 0, method: 'resources/read', params: { uri } };
    return knownTo({ def, kind: fixed ? 'resource' : 'resourceTemplate', method, target: uri, pipe }, req, SCOPE, io);
  };
}
