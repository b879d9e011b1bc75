/** What a 2026 flow carries from round to round inside the sealed requestState. */
export interface FlowState {
  /** Flow id: random, minted on the first round; keys the flow's exactly-once records. */
  i: string;
  /** Answers received so far: key → fingerprint of the question and the raw response. */
  a: Record<string, { f: string; r: unknown }>;
  /** Questions asked in the round that produced this state: key → fingerprint. */
  p: Record<string, string>;
  /** `ctx.state`. */
  s: Record<string, string>;
  /** `ctx.once` results (`{ v }`, or `{}` for undefined): a fallback when the flow store lost them. */
  o: Record<string, { v?: unknown }>;
}

/** A fingerprint that accepts any question with the same key (answers given without requestState). */
export const ANY_QUESTION = '*';

export function emptyFlow(id: string): FlowState {
  return { i: id, a: {}, p: {}, s: {}, o: {} };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads a decoded payload defensively: it passed the MAC, but only our own shape is accepted. */
export function readFlow(payload: unknown): FlowState | undefined {
  if (!isRecord(payload) || typeof payload.i !== 'string' || !isRecord(payload.a) || !isRecord(payload.p) || !isRecord(payload.s) || !isRecord(payload.o)) {
    return undefined;
  }
  const flow = emptyFlow(payload.i);
  for (const [k, v] of Object.entries(payload.a)) {
    if (isRecord(v) && typeof v.f === 'string') flow.a[k] = { f: v.f, r: v.r };
  }
  for (const [k, v] of Object.entries(payload.p)) if (typeof v === 'string') flow.p[k] = v;
  for (const [k, v] of Object.entries(payload.s)) if (typeof v === 'string') flow.s[k] = v;
  for (const [k, v] of Object.entries(payload.o)) if (isRecord(v)) flow.o[k] = v;
  return flow;
}

/**
 * Folds this round's `inputResponses` into the journal. With state, only answers to questions we
 * asked last round count; without state (a client answering by key alone), any key may answer.
 * Unknown keys are ignored (spec SHOULD); `null` or a non-object means "no answers".
 */
export function foldResponses(flow: FlowState, responses: unknown, hadState: boolean): void {
  if (!isRecord(responses)) return;
  for (const key of Object.keys(responses)) {
    if (hadState && !Object.prototype.hasOwnProperty.call(flow.p, key)) continue;
    const fingerprint = hadState ? flow.p[key]! : ANY_QUESTION;
    flow.a[key] = { f: fingerprint, r: responses[key] };
  }
  flow.p = {};
}
