/**
 * What a shared store throws when it cannot answer (Redis down, a timeout). The server answers the
 * request with a clear -32603 that names no address, and runs nothing more of it: a store that
 * cannot say whether a step ran never lets it run again (fail closed).
 */
export class StoreUnavailableError extends Error {
  /** What the client is told; the message (with the address) goes to the server log. */
  static readonly clientMessage = 'A shared store (e.g. Redis) is unavailable, so this request was refused; retry later';
}
