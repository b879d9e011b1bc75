/** What a 2026 flow carries from round to round inside the sealed requestState. */
export interface FlowState {
  /** Flow id: random, minted on the first round; keys the flow's exactly-once records. */
  i: string;
  /** Answers used so far: key → fingerprint of the question and the answer as kept (trimmed, valid). */
  a: Record<string, { f: string; r: unknown }>;
  /** Questions asked in the round that produced this state: key → fingerprint. */
  p: Record<string, string>;
  /** `ctx.state`. */
  s: Record<string, string>;
  /** A low-level handler's own state string (`InputRequired.requestState`). */
  u?: string;
  /** `ctx.once` results (`{ v }`, or `{}` for undefined): a fallback when the flow store lost them. */
  o: Record<string, { v?: unknown }>;
  /** Re-asks so far per key (an answer that failed its form), bounded by `maxReasks`. */
  x: Record<string, number>;
}

/** This round's `inputResponses` that may answer an ask: key → the question they answer and the raw answer. */
export type IncomingAnswers = Record<string, { f: string; r: unknown }>;

/** A fingerprint that accepts any question with the same key (answers given without requestState). */
export const ANY_QUESTION = '*';

/** Maps keyed by ask keys have no prototype: a key named `__proto__` or `constructor` is just a key. */
function dict<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

export function emptyFlow(id: string): FlowState {
  return { i: id, a: dict(), p: dict(), s: dict(), o: dict(), x: dict() };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasKey(map: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(map, key);
}

/** Reads a decoded payload defensively: it passed the MAC, but only our own shape is accepted. */
export function readFlow(payload: unknown): FlowState | undefined {
  if (!isRecord(payload) || typeof payload.i !== 'string' || !isRecord(payload.a) || !isRecord(payload.p) || !isRecord(payload.s) || !isRecord(payload.o)) {
    return undefined;
  }
  if (payload.x !== undefined && !isRecord(payload.x)) return undefined;
  const flow = emptyFlow(payload.i);
  for (const [k, v] of Object.entries(payload.a)) {
    if (isRecord(v) && typeof v.f === 'string') flow.a[k] = { f: v.f, r: v.r };
  }
  if (typeof payload.u === 'string') flow.u = payload.u;
  for (const [k, v] of Object.entries(payload.p)) if (typeof v === 'string') flow.p[k] = v;
  for (const [k, v] of Object.entries(payload.s)) if (typeof v === 'string') flow.s[k] = v;
  for (const [k, v] of Object.entries(payload.o)) if (isRecord(v)) flow.o[k] = v;
  for (const [k, v] of Object.entries(payload.x ?? {})) if (Number.isSafeInteger(v)) flow.x[k] = v as number;
  return flow;
}

/**
 * This round's `inputResponses` that may answer an ask. With state, only answers to questions we
 * asked last round count; without state (a client answering by key alone), any key may answer.
 * Nothing here is sealed: an answer enters the journal only when an ask of this attempt uses it,
 * trimmed to what that ask reads, so an unasked key or junk beside `content` never grows the
 * state. `null` or a non-object means "no answers".
 */
export function incomingAnswers(flow: FlowState, responses: unknown, hadState: boolean): IncomingAnswers {
  const incoming: IncomingAnswers = dict();
  if (isRecord(responses)) {
    for (const key of Object.keys(responses)) {
      if (hadState && !hasKey(flow.p, key)) continue;
      incoming[key] = { f: hadState ? flow.p[key]! : ANY_QUESTION, r: responses[key] };
    }
  }
  flow.p = dict();
  return incoming;
}
