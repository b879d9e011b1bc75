/**
 * Where a 2026 flow's exactly-once records live: which attempt holds the flow, the results of its
 * `ctx.once` bodies, and its completion. The sealed requestState alone cannot give "at most once":
 * a client can resend or fork any token it holds, so one-time effects are recorded server-side.
 *
 * Every method is async so a shared store (Redis: a hash per flow, one Lua script per operation)
 * fits the same interface. Every record carries an absolute expiry (epoch ms): the store may forget
 * a flow after it.
 *
 * A hold is a lease: it lasts `leaseMs` (measured by the store's clock) unless its holder renews it,
 * so a holder that died (kill -9, a lost machine) frees its flow within seconds and a retry takes it
 * over. Records stay fenced by holder identity: a holder whose lease lapsed may still write as long
 * as nobody took over; once someone did, its writes fail with FlowTakenOverError.
 */

/** A recorded `ctx.once` outcome; `value` absent means the body returned `undefined`. */
export interface OnceRecord {
  value?: unknown;
}

export type FlowClaim =
  /**
   * This attempt now holds the flow; `onces` are the bodies earlier attempts already ran.
   * `tookOver` says an earlier holder's lease had lapsed (it died, or stalled past its lease).
   */
  | { kind: 'claimed'; onces: Record<string, OnceRecord>; tookOver?: true }
  /** The flow already completed: return this result and run nothing. */
  | { kind: 'completed'; result: unknown }
  /** Another attempt of the same flow holds a live lease: wait and claim again. */
  | { kind: 'busy' }
  /**
   * The store cannot track one more flow: refuse the round (never forget a live flow instead).
   * `principal`: this caller's own share is used (others are still served); `server`: all of it.
   */
  | { kind: 'full'; scope?: 'principal' | 'server' }
  /**
   * A continuing flow whose record the store let go under pressure (a completed flow, oldest
   * first): refuse the round as expired. Never `claimed`: that would run a finished flow again.
   */
  | { kind: 'expired' };

export interface FlowStore {
  /**
   * Atomically: if the flow completed, say so; else if another holder's lease is live, `busy`;
   * else make `holder` the holder for `leaseMs` (registering the flow if new, or `full`) and
   * return its onces. `owner` (the principal id; undefined: anonymous) is whose share a new flow
   * counts against; `startedAtMs` (a continuing round: when its flow started) lets a store that
   * dropped completed records under pressure answer `expired` for one of them. A store may ignore both.
   */
  claim(
    flowId: string,
    holder: string,
    expiresAtMs: number,
    leaseMs: number,
    owner?: string,
    startedAtMs?: number,
  ): Promise<FlowClaim>;
  /** Extends the holder's lease to `leaseMs` from now; false when the flow is no longer its own. */
  renew(flowId: string, holder: string, leaseMs: number): Promise<boolean>;
  /** Records one once-result of the flow (only the holder; FlowTakenOverError otherwise). */
  recordOnce(flowId: string, holder: string, key: string, record: OnceRecord, expiresAtMs: number): Promise<void>;
  /**
   * Records the completion and releases the hold: later claims answer `completed`. `resultJson`, when
   * given, is `JSON.stringify(result)`, already made by the caller: a store that keeps JSON text may keep it.
   */
  complete(flowId: string, holder: string, result: unknown, expiresAtMs: number, resultJson?: string): Promise<void>;
  /** Releases the hold without completing (the round ended in input_required or failed). */
  release(flowId: string, holder: string): Promise<void>;
}

/**
 * A write by an attempt that no longer holds its flow: its lease lapsed and another request took
 * the flow over. The message names what happened; nothing is written.
 */
export class FlowTakenOverError extends Error {
  override readonly name = 'FlowTakenOverError';
  /** What the client is told. */
  static readonly clientMessage =
    'This round lost its hold on the flow (its lease, flowLeaseMs, lapsed and another request of the flow took it over); retry to get that request\'s result';

  constructor(readonly flowId: string) {
    super(`flow ${flowId} is not held by this round: its lease lapsed and another request took it over`);
  }
}
