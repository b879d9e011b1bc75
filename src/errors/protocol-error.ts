import { ErrorCode } from '../protocol/error-codes';

/** An error that crosses the wire as a JSON-RPC error object. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** HTTP status a transport should use; undefined means "in-band 200". */
    readonly httpStatus?: number,
  ) {
    super(message);
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static invalidParams(message: string, data?: unknown, httpStatus?: number): ProtocolError {
    return new ProtocolError(ErrorCode.InvalidParams, message, data, httpStatus);
  }
  static methodNotFound(method: string): ProtocolError {
    return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`, undefined, 404);
  }
  static invalidRequest(message: string): ProtocolError {
    return new ProtocolError(ErrorCode.InvalidRequest, message, undefined, 400);
  }
  static internal(message = 'Internal error'): ProtocolError {
    return new ProtocolError(ErrorCode.InternalError, message);
  }
  static headerMismatch(message: string): ProtocolError {
    return new ProtocolError(ErrorCode.HeaderMismatch, message, undefined, 400);
  }
  static missingCapability(requiredCapabilities: Record<string, unknown>, what: string): ProtocolError {
    return new ProtocolError(
      ErrorCode.MissingRequiredClientCapability,
      `Server requires the ${what} capability for this request`,
      { requiredCapabilities },
      400,
    );
  }
  static unsupportedVersion(supported: readonly string[], requested: unknown): ProtocolError {
    return new ProtocolError(
      ErrorCode.UnsupportedProtocolVersion,
      'Unsupported protocol version',
      { supported: [...supported], requested },
      400,
    );
  }
}
