/**
 * How a call went (rounds, asks, era), kept beside the result rather than on it so results stay
 * plain wire objects. `callInfo(result)` reads it; the test kit asserts on it.
 */
import type { Era } from '../protocol/versions';

export interface CallInfo {
  /** Requests sent for the call: 1 when the first answer was complete; 2026 only grows past 1. */
  readonly rounds: number;
  /** Asks answered for the call (2026 input requests, or legacy server-to-client requests). */
  readonly asks: number;
  readonly era: Era;
  /** The task the call became (2026 with the tasks extension); its polls count as rounds. */
  readonly taskId?: string;
}

const infos = new WeakMap<object, CallInfo>();

export function recordCallInfo<T extends object>(result: T, info: CallInfo): T {
  infos.set(result, Object.freeze({ ...info }));
  return result;
}

/** The rounds/asks of a result returned by ContextClient (undefined for other objects). */
export function callInfo(result: object): CallInfo | undefined {
  return infos.get(result);
}
