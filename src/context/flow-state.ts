/**
 * What a 2026 flow carries from round to round inside the sealed requestState, with names for the
 * code; `sealed-flow.ts` maps it to the compact form that travels.
 */
import type { OnceRecord } from '../state/flow-store';

/** An answer as the journal keeps it: the fingerprint of the question it answers, and the answer. */
export interface JournaledAnswer {
  question: string;
  answer: unknown;
}

export interface FlowState {
  /** Random, minted when the flow store first needs it; keys the flow's exactly-once records. */
  id: string;
  /** Answers used so far (trimmed to what the ask reads, valid): key → question and answer. */
  answers: Record<string, JournaledAnswer>;
  /** Questions asked in the round that produced this state: key → fingerprint. */
  asked: Record<string, string>;
  /** `ctx.state`. */
  state: Record<string, string>;
  /** A low-level handler's own state string (`InputRequired.requestState`). */
  handlerState?: string;
  /** `ctx.once` outcomes by key: a fallback when the flow store lost them. */
  onces: Record<string, OnceRecord>;
  /** Re-asks so far per key (an answer that failed its form), bounded by `maxReasks`. */
  reasks: Record<string, number>;
  /** This round's number: 1 for a request without requestState, then one more per round. */
  round: number;
  /** Telemetry only (sealed when a tracer is live): the flow's first span, as 50 hex characters. */
  firstSpan?: string;
}

/** This round's `inputResponses` that may answer an ask: key → the question they answer and the raw answer. */
export type IncomingAnswers = Record<string, JournaledAnswer>;

/** A fingerprint that accepts any question with the same key (answers given without requestState). */
export const ANY_QUESTION = '*';

/** Maps keyed by ask keys have no prototype: a key named `__proto__` or `constructor` is just a key. */
export function dict<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

export function emptyFlow(id: string): FlowState {
  return { id, answers: dict(), asked: dict(), state: dict(), onces: dict(), reasks: dict(), round: 1 };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasKey(map: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(map, key);
}

/**
 * This round's `inputResponses` that may answer an ask. With state, only answers to questions we
 * asked last round count; without state (a client answering by key alone), any key may answer.
 * Nothing here is sealed: an answer enters the journal only when an ask of this attempt uses it,
 * trimmed to what that ask reads, so an unasked key or junk beside `content` never grows the
 * state. `null` or a non-object means "no answers".
 */
export function incomingAnswers(flow: FlowState, responses: unknown, hadState: boolean): IncomingAnswers {
  // No answers (every first round): one shared empty map, which nothing writes (answers are only deleted from it);
  // a flow without state is a fresh one, whose `asked` is already empty.
  if (!isRecord(responses)) {
    if (hadState) flow.asked = dict();
    return NO_ANSWERS;
  }
  const incoming: IncomingAnswers = dict();
  for (const key of Object.keys(responses)) {
    if (hadState && !hasKey(flow.asked, key)) continue;
    incoming[key] = { question: hadState ? flow.asked[key]! : ANY_QUESTION, answer: responses[key] };
  }
  flow.asked = dict();
  return incoming;
}

const NO_ANSWERS: IncomingAnswers = Object.freeze(dict<JournaledAnswer>());
