/**
 * The compact form of a flow inside requestState (short keys keep the token small):
 * `i` id, `a` answers (`f` question fingerprint, `r` answer), `p` asked, `s` ctx.state,
 * `u` the handler's own state, `o` once outcomes (`once:<key>` → `{ v }`), `x` re-asks, `n` the round that sealed it,
 * `t` the first round's span context (telemetry: trace id, span id, flags as 50 hex characters),
 * `w` when the round's questions went out (epoch ms, for the ask watchdog), `g` the approval-page flow it continues.
 */
import { jsonString } from '../protocol/json-text';
import { dict, emptyFlow, isRecord, madeMaps, type FlowState } from './flow-state';

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

/** What an absent or empty map seals as: nothing is made for it (JSON.stringify reads it as `{}`). */
const NONE: Record<string, never> = Object.freeze({});

/**
 * The flow in its sealed form: a new object, whose maps of questions, `ctx.state` and re-asks are copies, so
 * nothing the round still holds is part of it.
 */
export function toSealedFlow(flow: FlowState): SealedFlow {
  const maps = madeMaps(flow);
  const sealed: SealedFlow = {
    i: flow.id,
    a: NONE,
    p: copied(maps.askedMap),
    s: copied(maps.stateMap),
    o: NONE,
    x: copied(maps.reasksMap),
    n: flow.round,
  };
  const answers = maps.answersMap;
  // An empty map seals as NONE too (a map read but never written): see standsForItsText.
  for (const k in answers) {
    if (sealed.a === NONE) sealed.a = dict();
    sealed.a[k] = { f: answers[k]!.question, r: answers[k]!.answer };
  }
  const onces = maps.oncesMap;
  for (const k in onces) {
    if (sealed.o === NONE) sealed.o = dict();
    sealed.o[ONCE_PREFIX + k] = 'value' in onces[k]! ? { v: onces[k]!.value } : {};
  }
  if (flow.handlerState !== undefined) sealed.u = flow.handlerState;
  if (flow.firstSpan !== undefined) sealed.t = flow.firstSpan;
  if (flow.askedAt !== undefined) sealed.w = flow.askedAt;
  if (flow.approval !== undefined) sealed.g = flow.approval;
  return sealed;
}

/**
 * True when `sealed` (from toSealedFlow) can stand for its own JSON text: with no answers and no once
 * outcomes, it holds only strings and safe integers, in maps toSealedFlow made, so readFlow reads the same
 * from it as from a parse of its text. The codec may then keep it for the token's return (issue 34).
 */
export function standsForItsText(sealed: SealedFlow): boolean {
  return sealed.a === NONE && sealed.o === NONE;
}

/**
 * `JSON.stringify(sealed)` made from its parts when it stands for its own text (standsForItsText), else
 * undefined: on Node 20 stringifying the round-1 flow costs ≈ 10 k instructions (issue 34). Keys in the
 * order JSON.stringify takes them (Object.keys); a value of any unexpected type gives undefined.
 */
export function sealedFlowText(sealed: SealedFlow): string | undefined {
  if (!standsForItsText(sealed) || !isCount(sealed.n)) return undefined;
  const p = mapText(sealed.p, 'string');
  const s = mapText(sealed.s, 'string');
  const x = mapText(sealed.x, 'number');
  if (p === undefined || s === undefined || x === undefined || typeof sealed.i !== 'string') return undefined;
  let text = `{"i":${jsonString(sealed.i)},"a":{},"p":${p},"s":${s},"o":{},"x":${x},"n":${sealed.n}`;
  if (sealed.u !== undefined) text += `,"u":${jsonString(sealed.u)}`;
  if (sealed.t !== undefined) text += `,"t":${jsonString(sealed.t)}`;
  if (sealed.w !== undefined) {
    if (!isCount(sealed.w)) return undefined;
    text += `,"w":${sealed.w}`;
  }
  if (sealed.g !== undefined) text += `,"g":${jsonString(sealed.g)}`;
  return text + '}';
}

/** A map of strings, or of safe integers, as JSON text. */
function mapText(map: Record<string, unknown>, type: 'string' | 'number'): string | undefined {
  let text = '';
  for (const k of Object.keys(map)) {
    const v = map[k];
    if (typeof v !== type || (type === 'number' && !isCount(v))) return undefined;
    text += `${text === '' ? '{' : ','}${jsonString(k)}:${type === 'string' ? jsonString(v as string) : v}`;
  }
  return text === '' ? '{}' : text + '}';
}

/** A safe integer: its JSON is its decimal string. */
function isCount(v: unknown): v is number {
  return Number.isSafeInteger(v);
}

/**
 * A map's copy as a plain object, as JSON.parse makes them (V8 reads those back faster than a prototype-less
 * map); a key `__proto__` is defined as a key, as JSON.parse does, never set as the prototype.
 */
function copied<V>(map: Record<string, V> | undefined): Record<string, V> {
  let copy: Record<string, V> | undefined;
  for (const k in map) {
    copy ??= {};
    if (k !== '__proto__') copy[k] = map[k]!;
    else Object.defineProperty(copy, k, { value: map[k], enumerable: true, writable: true, configurable: true });
  }
  return copy ?? NONE;
}

/**
 * Reads a decoded payload defensively: it passed the MAC, but only our own shape is accepted.
 * Keys are read with Object.keys (own keys only, one array per map, none for an empty one); an
 * empty map leaves the flow's map unmade.
 */
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
  const { a, p, s, o, x } = payload;
  for (const k of Object.keys(a)) {
    const v = a[k];
    if (isRecord(v) && typeof v.f === 'string') flow.answers[k] = { question: v.f, answer: v.r };
  }
  if (typeof payload.u === 'string') flow.handlerState = payload.u;
  if (typeof payload.t === 'string') flow.firstSpan = payload.t;
  if (Number.isSafeInteger(payload.w)) flow.askedAt = payload.w as number;
  if (typeof payload.g === 'string') flow.approval = payload.g;
  // The round that sealed it (a token without one counts as round 1).
  if (Number.isSafeInteger(payload.n) && (payload.n as number) > 0) flow.round = payload.n as number;
  for (const k of Object.keys(p)) if (typeof p[k] === 'string') flow.asked[k] = p[k];
  for (const k of Object.keys(s)) if (typeof s[k] === 'string') flow.state[k] = s[k];
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (!isRecord(v) || !k.startsWith(ONCE_PREFIX)) continue;
    flow.onces[k.slice(ONCE_PREFIX.length)] = 'v' in v ? { value: v.v } : {};
  }
  if (x !== undefined) for (const k of Object.keys(x)) if (Number.isSafeInteger(x[k])) flow.reasks[k] = x[k] as number;
  return flow;
}
