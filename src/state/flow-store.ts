/**
 * Where a 2026 flow's exactly-once records live: which attempt holds the flow, the results of its
 * `ctx.once` bodies, and its completion. The sealed requestState alone cannot give "at most once":
 * a client can resend or fork any token it holds, so one-time effects are recorded server-side.
 *
 * Every method is async so a shared store (Redis: a hash per flow, `SET NX PX` for the holder, a
 * Lua script for `claim`) fits the same interface; a task store can key its records the same way.
 * Every record carries an absolute expiry (epoch ms): the store may forget a flow after it.
 */

/** A recorded `ctx.once` outcome; `value` absent means the body returned `undefined`. */
export interface OnceRecord {
  value?: unknown;
}

export type FlowClaim =
  /** This attempt now holds the flow; `onces` are the bodies earlier attempts already ran. */
  | { kind: 'claimed'; onces: Record<string, OnceRecord> }
  /** The flow already completed: return this result and run nothing. */
  | { kind: 'completed'; result: unknown }
  /** Another attempt of the same flow is running: wait and claim again. */
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
   * Atomically: if the flow completed, say so; else if another holder's claim is live, `busy`;
   * else make `holder` the holder (registering the flow if new, or `full`) and return its onces.
   * `owner` (the principal id; undefined: anonymous) is whose share a new flow counts against;
   * `startedAtMs` (a continuing round: when its flow started) lets a store that dropped completed
   * records under pressure answer `expired` for one of them. A store may ignore both.
   */
  claim(flowId: string, holder: string, expiresAtMs: number, owner?: string, startedAtMs?: number): Promise<FlowClaim>;
  /** Records one once-result of the flow (only the holder calls it). */
  recordOnce(flowId: string, holder: string, key: string, record: OnceRecord, expiresAtMs: number): Promise<void>;
  /** Records the completion and releases the claim: later claims answer `completed`. */
  complete(flowId: string, holder: string, result: unknown, expiresAtMs: number): Promise<void>;
  /** Releases the claim without completing (the round ended in input_required or failed). */
  release(flowId: string, holder: string): Promise<void>;
}
