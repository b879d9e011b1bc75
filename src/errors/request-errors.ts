/**
 * Errors a prompt or resource handler throws to say the request itself is wrong. The server turns
 * them into the JSON-RPC error the negotiated revision uses, so handlers never pick codes:
 *
 * - `NotFoundError` from a resource: `-32002` on 2025-11-25 and earlier, `-32602` on 2026-07-28
 *   (which retired -32002), with `data.uri`; from a prompt: `-32602`.
 * - `InvalidParamsError`: `-32602` on every revision.
 *
 * Thrown from a tool, both are ordinary tool errors (an `isError` result the model can read).
 */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
  constructor(
    message: string,
    /** Extra JSON for the error's `data` (a resource's `uri` is added for you). */
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export class InvalidParamsError extends Error {
  override readonly name = 'InvalidParamsError';
  constructor(
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}
