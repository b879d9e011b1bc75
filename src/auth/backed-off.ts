/**
 * A fetch from an authorization server (its metadata, its JWK Set) made at most once at a time:
 * callers that arrive while it runs share it, and a failure is remembered for a cooldown (with
 * jitter, so a fleet does not retry in step) during which callers get the same failure at once,
 * without a request. An unreachable authorization server then costs one request per cooldown,
 * whatever the traffic.
 */

/** The authorization server could not be asked: the client gets 503, not 401 (its token may be fine). */
export class DependencyUnavailableError extends Error {
  constructor(what: string, cause: unknown, retryInMs?: number) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`${what} unavailable: ${why}${retryInMs === undefined ? '' : ` (next try in ${Math.ceil(retryInMs / 1000)} s)`}`);
    this.name = 'DependencyUnavailableError';
  }
}

export interface BackoffClock {
  now(): number;
  /** In [0, 1): the jitter. */
  random(): number;
}

export const SYSTEM_CLOCK: BackoffClock = { now: Date.now, random: Math.random };

/** A failure's cooldown: `cooldownMs` to 1.5 × `cooldownMs`. */
export function jittered(cooldownMs: number, clock: BackoffClock): number {
  return Math.round(cooldownMs * (1 + clock.random() / 2));
}

export class BackedOff<T> {
  private pending?: Promise<T>;
  private failure?: { error: unknown; untilMs: number };

  constructor(
    private readonly what: string,
    private readonly fetchOnce: () => Promise<T>,
    private readonly cooldownMs: number,
    private readonly clock: BackoffClock = SYSTEM_CLOCK,
  ) {}

  /** The fetch's result: the one running, the remembered failure, or a new fetch. */
  get(): Promise<T> {
    if (this.pending) return this.pending;
    const failure = this.failure;
    if (failure && failure.untilMs > this.clock.now()) {
      const retryInMs = failure.untilMs - this.clock.now();
      return Promise.reject(new DependencyUnavailableError(this.what, failure.error, retryInMs));
    }
    const run = this.fetchOnce().then(
      (value) => {
        this.failure = undefined;
        return value;
      },
      (error: unknown) => {
        this.failure = { error, untilMs: this.clock.now() + jittered(this.cooldownMs, this.clock) };
        throw error instanceof DependencyUnavailableError ? error : new DependencyUnavailableError(this.what, error);
      },
    );
    this.pending = run;
    const clear = () => {
      if (this.pending === run) this.pending = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  /** Whether a failure is being remembered now. */
  get coolingDown(): boolean {
    return this.failure !== undefined && this.failure.untilMs > this.clock.now();
  }
}
