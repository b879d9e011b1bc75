import { ErrorCode } from '../protocol/error-codes';

/**
 * An error that crosses the wire as a JSON-RPC error object (`code`, `message`, `data`). It knows
 * nothing of HTTP: the HTTP transport maps the status from the code (protocol/http-status.ts).
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** `cause`: the error this one wraps (kept on `error.cause`, never sent). */
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static invalidParams(message: string, data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCode.InvalidParams, message, data);
  }
  static methodNotFound(method: string): ProtocolError {
    return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
  static invalidRequest(message: string): ProtocolError {
    return new ProtocolError(ErrorCode.InvalidRequest, message);
  }
  static internal(message = 'Internal error'): ProtocolError {
    return new ProtocolError(ErrorCode.InternalError, message);
  }
  static headerMismatch(message: string): ProtocolError {
    return new ProtocolError(ErrorCode.HeaderMismatch, message);
  }
  static missingCapability(requiredCapabilities: Record<string, unknown>, what: string): ProtocolError {
    return new ProtocolError(
      ErrorCode.MissingRequiredClientCapability,
      `Server requires the ${what} capability for this request`,
      { requiredCapabilities },
    );
  }
  /**
   * 2025-11-25's URLElicitationRequiredError: the request needs the user to complete these URL
   * elicitations first. Sent only to 2025-11-25 sessions (elsewhere it becomes -32603, logged).
   */
  static urlElicitationRequired(
    elicitations: ReadonlyArray<{ url: string; message: string; elicitationId: string }>,
  ): ProtocolError {
    return new ProtocolError(ErrorCode.UrlElicitationRequired, 'This request requires more information.', {
      elicitations: elicitations.map((e) => ({ mode: 'url', ...e })),
    });
  }
  static unsupportedVersion(supported: readonly string[], requested: unknown): ProtocolError {
    return new ProtocolError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
      supported: [...supported],
      requested,
    });
  }
}
