/**
 * What a Redis-backed store throws when Redis cannot answer: the address, what failed, and the
 * client's error as `cause`. A store never hangs on a dead Redis (every command has a timeout) and
 * never answers as if a record were absent: the caller fails closed.
 */
import { StoreUnavailableError } from '../state/store-unavailable';

export class RedisUnavailableError extends StoreUnavailableError {
  override readonly name = 'RedisUnavailableError';

  constructor(
    /** `host:port` of the Redis the store talks to. */
    readonly address: string,
    /** Why: "no reply within 2000 ms", "the connection is closed", … */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Redis at ${address} is unreachable (${reason})`, options);
  }
}
