import type { FrameworkErrorCode } from './framework-error-codes';

export { FRAMEWORK_ERROR_CODES, type FrameworkErrorCode } from './framework-error-codes';

/**
 * A local error for the developer: thrown at start-up or by misuse; never sent as-is. `name` is
 * `FrameworkError` for the whole family (subclasses included): `code` tells which one it is.
 */
export class FrameworkError extends Error {
  override readonly name = 'FrameworkError';
  constructor(
    readonly code: FrameworkErrorCode,
    /** The message without the code prefix: what a model or end user may read. */
    readonly detail: string,
    /** `cause`: the error this one wraps (kept on `error.cause`, never sent). */
    options?: { cause?: unknown },
  ) {
    super(`[${code}] ${detail}`, options);
  }
}
