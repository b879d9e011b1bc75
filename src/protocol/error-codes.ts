/** JSON-RPC error codes that cross the wire (digest §2). */
export const ErrorCode = Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy resource-not-found (2025-11-25 and earlier). */
  ResourceNotFound: -32002,
  /** 2025-11-25 only: URL elicitation required. */
  UrlElicitationRequired: -32042,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  /** Ours (implementation-defined range): a call whose access token lacks scopes; HTTP 403. */
  InsufficientScope: -32003,
  /**
   * Ours: a new legacy session refused because its pool is full of sessions in use (none idle long
   * enough to be evicted); HTTP 429 (503 for the server's whole pool) with `Retry-After`.
   */
  TooManySessions: -32004,
});
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
