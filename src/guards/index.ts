/** Built-in guards and interceptors: each one a user could have written on the public API. */
export { RateLimit, RATE_LIMITED, type RateLimitOptions, type RateLimitGuardClass } from './rate-limit';
export { Timeout } from './timeout';
export { ResultSizeLimit } from './result-size';
export { Timing, type TimingEntry, type TimingSink } from './timing';
