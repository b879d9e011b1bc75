/**
 * The HTTP status of a JSON-RPC error, as the spec fixes it from the code (digest §2), whoever
 * raised the error: the framework or a handler. Pure; the HTTP transport applies it.
 */
import { ErrorCode } from './error-codes';
import type { Era } from './versions';

const MODERN_STATUS: ReadonlyMap<number, number> = new Map([
  [ErrorCode.ParseError, 400],
  [ErrorCode.InvalidRequest, 400],
  [ErrorCode.MethodNotFound, 404],
  [ErrorCode.HeaderMismatch, 400],
  [ErrorCode.MissingRequiredClientCapability, 400],
  [ErrorCode.UnsupportedProtocolVersion, 400],
]);

/**
 * 2026-07-28: the codes above have fixed statuses; any other error is in band (200). Inside a
 * legacy session every error is in band: on 2025-x a 404 means "session gone, re-initialize".
 */
export function httpStatusOfError(code: number, era: Era): number {
  return era === 'modern' ? (MODERN_STATUS.get(code) ?? 200) : 200;
}
