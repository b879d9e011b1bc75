/**
 * A `subscriptions/listen` stream (every transport): a slot under the listen caps (this instance's,
 * and the fleet's when leases are shared), then the subscription; closing it, gracefully or not,
 * frees the slots.
 */
import type { JsonRpcRequest, JsonRpcResponse } from '../../protocol/jsonrpc';
import type { ServerTelemetry } from '../../telemetry/server-telemetry';
import type { ServerCore } from '../core/server-core';
import type { ListenStream, Reply } from '../server-endpoint';
import { holdFleetListen } from './fleet-listen';
import type { ListenQuota } from './listen-quota';
import type { RequestIO } from '../request/request-io';
import { listenVisibility } from './listen-visibility';
import { openSubscription } from './subscriptions';

/**
 * `subscriptions/listen` (every transport): a slot under the listen caps, then the subscription;
 * closing it (gracefully or not) frees the slot.
 */
export function openListen(
  core: ServerCore,
  listens: ListenQuota,
  telemetry: ServerTelemetry,
  req: JsonRpcRequest,
  io: RequestIO,
  errorReply: (req: JsonRpcRequest, e: unknown) => Reply,
): ListenStream {
  const principalId = io.principal?.id;
  const taken = listens.take(principalId);
  telemetry.listenStreams(1);
  let released = false;
  const release = () => {
    taken();
    if (!released) telemetry.listenStreams(-1);
    released = true;
  };
  try {
    const sub = openSubscription(core.registry, req, core.info, core.options, listenVisibility(core, io));
    let ended: JsonRpcResponse | undefined;
    let endStream: ((final: JsonRpcResponse) => void) | undefined;
    const close = () => {
      release();
      releaseFleet?.();
      return sub.close();
    };
    // Ended by the server (fleet quota full, store unavailable): once, whether or not forwarding began.
    const endWith = (error: unknown) => {
      if (ended) return;
      close();
      ended = errorReply(request, error).message;
      endStream?.(ended);
    };
    // The error reply needs only the id: the request itself is not kept for the stream's life.
    const request: JsonRpcRequest = { jsonrpc: '2.0', id: req.id, method: req.method };
    const leases = core.shared?.leases;
    const releaseFleet = leases && holdFleetListen(leases, core.options, principalId, endWith);
    return {
      kind: 'stream',
      ack: sub.ack,
      forward: (send, end) => {
        if (ended) return end?.(ended);
        endStream = end;
        sub.forward(send);
      },
      close,
    };
  } catch (e) {
    release();
    throw e;
  }
}

