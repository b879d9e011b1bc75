/**
 * The JSON-RPC codes a handler may throw (docs/errors.md "Codes your handlers may use"). The ranges
 * the spec reserves stay the framework's: a handler that throws one by accident sends -32603 and
 * the server log says which code it tried, so a client never misreads an app failure as, say, a
 * header mismatch or an unsupported revision.
 */
import { ProtocolError } from '../../errors/protocol-error';
import { ErrorCode } from '../../protocol/error-codes';
import type { Era } from '../../protocol/versions';
import type { ServerLogger } from '../core/server-logger';

/** Implementation-defined codes (-32000..-32019) are the app's, except -32002 below. */
const APP_RANGE = { from: -32019, to: -32000 };
/** JSON-RPC reserves -32768..-32000; MCP allocates -32020..-32099 inside it. */
const RESERVED = { from: -32768, to: -32000 };

function inRange(code: number, r: { from: number; to: number }): boolean {
  return code >= r.from && code <= r.to;
}

function hasUrlElicitations(data: unknown): boolean {
  return typeof data === 'object' && data !== null && Array.isArray((data as { elicitations?: unknown }).elicitations);
}

/** The error a handler's ProtocolError becomes on the wire for this request. */
export function vetHandlerError(
  e: ProtocolError,
  where: { era: Era; protocolVersion: string; owner: string },
  logger: ServerLogger,
): ProtocolError {
  const code = e.code;
  switch (code) {
    case ErrorCode.InvalidParams:
    case ErrorCode.InternalError:
    case ErrorCode.MissingRequiredClientCapability:
      return e;
    case ErrorCode.ResourceNotFound:
      // Replaced by -32602 on 2026-07-28, which must not send -32002.
      return where.era === 'modern' ? new ProtocolError(ErrorCode.InvalidParams, e.message, e.data, { cause: e }) : e;
    case ErrorCode.UrlElicitationRequired:
      if (where.protocolVersion === '2025-11-25' && hasUrlElicitations(e.data)) return e;
      break;
    default:
      if (!Number.isInteger(code)) break;
      if (inRange(code, APP_RANGE) || !inRange(code, RESERVED)) return e;
  }
  logger.error(
    `handler ${where.owner} threw ProtocolError code ${String(code)}, which the framework reserves; sent as -32603`,
    {
      message: e.message,
    },
  );
  return ProtocolError.internal();
}
