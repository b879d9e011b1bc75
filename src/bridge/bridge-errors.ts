/** The bridge's refusals: JSON-RPC errors whose `data.reason` says what happened to the upstream call. */
import { ProtocolError } from '../errors/protocol-error';
import { ErrorCode } from '../protocol/error-codes';

export type BridgeRefusal =
  | 'upstream_unavailable'
  | 'parked_elsewhere'
  | 'parked_expired'
  | 'park_limit'
  | 'upstream_asks_limit'
  | 'upstream_malformed'
  | 'call_deadline';

/** A retry naming a call that is not here is a bad request (-32602); the rest are failures (-32603). */
export function bridgeError(
  reason: BridgeRefusal,
  message: string,
  extra: Record<string, unknown> = {},
): ProtocolError {
  const badRetry = reason === 'parked_elsewhere' || reason === 'parked_expired';
  return new ProtocolError(badRetry ? ErrorCode.InvalidParams : ErrorCode.InternalError, message, { reason, ...extra });
}
