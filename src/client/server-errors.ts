/**
 * The JSON-RPC errors a server answers with, as the client raises them: a `ServerError` (a
 * `ProtocolError`) with the HTTP status it arrived with, and a subclass for each code the client
 * itself acts on, so callers can tell them apart with `instanceof`.
 */
import { ProtocolError } from '../errors/protocol-error';
import { ErrorCode } from '../protocol/error-codes';
import type { JsonRpcErrorObject } from '../protocol/jsonrpc';

/** A JSON-RPC error object the server sent in answer to a request. */
export class ServerError extends ProtocolError {
  constructor(
    code: number,
    message: string,
    data?: unknown,
    /** The HTTP status the error came with (HTTP transports only). */
    readonly httpStatus?: number,
  ) {
    super(code, message, data);
  }
}

/** -32601: the server has no such method (on 2026 HTTP, with 404: a server that is not 2026). */
export class MethodNotFoundError extends ServerError {}

/** -32020: the request's HTTP headers disagree with its body (2026 HTTP). */
export class HeaderMismatchError extends ServerError {}

/** -32021: the request needs a client capability this client did not declare. */
export class MissingCapabilityError extends ServerError {
  /** `data.requiredCapabilities`: the capabilities the server asked for. */
  get requiredCapabilities(): Record<string, unknown> {
    const required = (this.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
    return typeof required === 'object' && required !== null && !Array.isArray(required)
      ? (required as Record<string, unknown>)
      : {};
  }
}

/** -32022: the server does not speak the requested revision. */
export class UnsupportedVersionError extends ServerError {
  /** `data.supported`: the revisions the server speaks. */
  get supported(): string[] {
    const supported = (this.data as { supported?: unknown } | undefined)?.supported;
    return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : [];
  }
}

type ServerErrorClass = new (code: number, message: string, data?: unknown, httpStatus?: number) => ServerError;

const BY_CODE: ReadonlyMap<number, ServerErrorClass> = new Map<number, ServerErrorClass>([
  [ErrorCode.MethodNotFound, MethodNotFoundError],
  [ErrorCode.HeaderMismatch, HeaderMismatchError],
  [ErrorCode.MissingRequiredClientCapability, MissingCapabilityError],
  [ErrorCode.UnsupportedProtocolVersion, UnsupportedVersionError],
]);

/** The typed error for a server's error object. */
export function serverErrorOf(error: JsonRpcErrorObject, httpStatus?: number): ServerError {
  const Class = BY_CODE.get(error.code) ?? ServerError;
  return new Class(error.code, error.message, error.data, httpStatus);
}
