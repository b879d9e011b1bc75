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
  /** When the last round's questions went out (epoch ms): the ask watchdog times an instant decline from it. */
  askedAt?: number;
  /** The approval-page flow this call continues (a question on a page, reached by a URL elicitation). */
  approval?: string;
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
  return new LazyFlow(id);
}

/**
 * A flow whose maps are made on first use: most calls never ask, fence or seal, and five empty
 * maps per call were most of what the 2026 scaffold allocated. Not for `structuredClone` (the maps
 * live behind accessors): copy it with `plainFlow`.
 */
class LazyFlow implements FlowState {
  round = 1;
  handlerState?: string;
  firstSpan?: string;
  askedAt?: number;
  approval?: string;
  answersMap?: Record<string, JournaledAnswer>;
  askedMap?: Record<string, string>;
  stateMap?: Record<string, string>;
  oncesMap?: Record<string, OnceRecord>;
  reasksMap?: Record<string, number>;

  constructor(public id: string) {}

  get answers(): Record<string, JournaledAnswer> {
    return (this.answersMap ??= dict());
  }
  set answers(v: Record<string, JournaledAnswer>) {
    this.answersMap = v;
  }
  get asked(): Record<string, string> {
    return (this.askedMap ??= dict());
  }
  set asked(v: Record<string, string>) {
    this.askedMap = v;
  }
  get state(): Record<string, string> {
    return (this.stateMap ??= dict());
  }
  set state(v: Record<string, string>) {
    this.stateMap = v;
  }
  get onces(): Record<string, OnceRecord> {
    return (this.oncesMap ??= dict());
  }
  set onces(v: Record<string, OnceRecord>) {
    this.oncesMap = v;
  }
  get reasks(): Record<string, number> {
    return (this.reasksMap ??= dict());
  }
  set reasks(v: Record<string, number>) {
    this.reasksMap = v;
  }

  /** `ctx.state` as sealed, without making an empty map for a flow that has none. */
  stateIfAny(): Record<string, string> | undefined {
    return this.stateMap;
  }
}

/** A flow's maps that exist (a LazyFlow's absent ones are undefined). */
export interface MadeMaps {
  readonly answersMap?: Record<string, JournaledAnswer>;
  readonly askedMap?: Record<string, string>;
  readonly stateMap?: Record<string, string>;
  readonly oncesMap?: Record<string, OnceRecord>;
  readonly reasksMap?: Record<string, number>;
}

/** The maps of `flow` that exist, without making the absent ones. */
export function madeMaps(flow: FlowState): MadeMaps {
  if (flow instanceof LazyFlow) return flow; // its absent maps stay unmade
  return {
    answersMap: flow.answers,
    askedMap: flow.asked,
    stateMap: flow.state,
    oncesMap: flow.onces,
    reasksMap: flow.reasks,
  };
}

/** The flow's `ctx.state` values, or undefined when it has none (nothing is made for it). */
export function initialState(flow: FlowState): Record<string, string> | undefined {
  return flow instanceof LazyFlow ? flow.stateIfAny() : flow.state;
}

/** The flow as a plain object (what `structuredClone` can copy). */
export function plainFlow(flow: FlowState): FlowState {
  const { id, answers, asked, state, handlerState, onces, reasks, round, firstSpan } = flow;
  const plain: FlowState = { id, answers, asked, state, onces, reasks, round };
  if (handlerState !== undefined) plain.handlerState = handlerState;
  if (firstSpan !== undefined) plain.firstSpan = firstSpan;
  if (flow.askedAt !== undefined) plain.askedAt = flow.askedAt;
  if (flow.approval !== undefined) plain.approval = flow.approval;
  return plain;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Forgets `key`'s re-ask count (its ask was answered) without making the map for a flow that has none. */
export function forgetReasks(flow: FlowState, key: string): void {
  const reasks = flow instanceof LazyFlow ? flow.reasksMap : flow.reasks;
  if (reasks !== undefined && hasKey(reasks, key)) delete reasks[key];
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
