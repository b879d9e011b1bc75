/**
 * The compact form of a flow inside requestState (short keys keep the token small):
 * `i` id, `a` answers (`f` question fingerprint, `r` answer), `p` asked, `s` ctx.state,
 * `u` the handler's own state, `o` once outcomes (`once:<key>` → `{ v }`), `x` re-asks, `n` the round that sealed it,
 * `t` the first round's span context (telemetry: trace id, span id, flags as 50 hex characters),
 * `w` when the round's questions went out (epoch ms, for the ask watchdog), `g` the approval-page flow it continues.
 */
import { dict, emptyFlow, isRecord, type FlowState } from './flow-state';

export interface SealedFlow {
  i: string;
  a: Record<string, { f: string; r: unknown }>;
  p: Record<string, string>;
  s: Record<string, string>;
  u?: string;
  o: Record<string, { v?: unknown }>;
  x: Record<string, number>;
  n?: number;
  t?: string;
  w?: number;
  g?: string;
}

const ONCE_PREFIX = 'once:';

export function toSealedFlow(flow: FlowState): SealedFlow {
  const sealed: SealedFlow = {
    i: flow.id,
    a: dict(),
    p: flow.asked,
    s: flow.state,
    o: dict(),
    x: flow.reasks,
    n: flow.round,
  };
  for (const [k, v] of Object.entries(flow.answers)) sealed.a[k] = { f: v.question, r: v.answer };
  if (flow.handlerState !== undefined) sealed.u = flow.handlerState;
  for (const [k, v] of Object.entries(flow.onces)) sealed.o[ONCE_PREFIX + k] = 'value' in v ? { v: v.value } : {};
  if (flow.firstSpan !== undefined) sealed.t = flow.firstSpan;
  if (flow.askedAt !== undefined) sealed.w = flow.askedAt;
  if (flow.approval !== undefined) sealed.g = flow.approval;
  return sealed;
}

/** Reads a decoded payload defensively: it passed the MAC, but only our own shape is accepted. */
export function readFlow(payload: unknown): FlowState | undefined {
  if (
    !isRecord(payload) ||
    typeof payload.i !== 'string' ||
    !isRecord(payload.a) ||
    !isRecord(payload.p) ||
    !isRecord(payload.s) ||
    !isRecord(payload.o)
  ) {
    return undefined;
  }
  if (payload.x !== undefined && !isRecord(payload.x)) return undefined;
  const flow = emptyFlow(payload.i);
  for (const [k, v] of Object.entries(payload.a)) {
    if (isRecord(v) && typeof v.f === 'string') flow.answers[k] = { question: v.f, answer: v.r };
  }
  if (typeof payload.u === 'string') flow.handlerState = payload.u;
  if (typeof payload.t === 'string') flow.firstSpan = payload.t;
  if (Number.isSafeInteger(payload.w)) flow.askedAt = payload.w as number;
  if (typeof payload.g === 'string') flow.approval = payload.g;
  // The round that sealed it (a token without one counts as round 1).
  if (Number.isSafeInteger(payload.n) && (payload.n as number) > 0) flow.round = payload.n as number;
  for (const [k, v] of Object.entries(payload.p)) if (typeof v === 'string') flow.asked[k] = v;
  for (const [k, v] of Object.entries(payload.s)) if (typeof v === 'string') flow.state[k] = v;
  for (const [k, v] of Object.entries(payload.o)) {
    if (isRecord(v) && k.startsWith(ONCE_PREFIX))
      flow.onces[k.slice(ONCE_PREFIX.length)] = 'v' in v ? { value: v.v } : {};
  }
  for (const [k, v] of Object.entries(payload.x ?? {})) if (Number.isSafeInteger(v)) flow.reasks[k] = v as number;
  return flow;
}
