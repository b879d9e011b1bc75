/**
 * The 2026-07-28 multi-round driver (digest §3): answer every input request of a round in
 * parallel, retry the same method and params with a new id, this round's `inputResponses` only and
 * the byte-exact `requestState` (none when none was given), until a result is complete.
 */
import { FrameworkError } from '../errors/framework-error';
import type { JsonObject } from '../protocol/jsonrpc';
import { MaxInputRoundsError } from './errors';
import { abortableSleep } from './abortable-sleep';

export type InputRequestMap = Record<string, { method: string; params?: JsonObject }>;

export interface DriveOptions {
  method: string;
  params: JsonObject;
  /** Answered rounds allowed before giving up. */
  maxInputRounds: number;
  /** Hand the first `input_required` result back instead of answering it. */
  manual?: boolean;
  stateOnlyBackoffMs: number;
  signal?: AbortSignal;
  /** Sends one round (the caller gives it a new JSON-RPC id every time). */
  send(params: JsonObject): Promise<JsonObject>;
  answer(requests: InputRequestMap): Promise<Record<string, JsonObject>>;
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Driven {
  result: JsonObject;
  /** Requests sent for this call (1 when the first answer was complete). */
  rounds: number;
  /** Input requests answered across all rounds. */
  asks: number;
}

/** A missing `resultType` means complete (legacy servers, older modern servers). */
export function isInputRequired(result: JsonObject): boolean {
  return result.resultType === 'input_required';
}

export async function driveInputRounds(o: DriveOptions): Promise<Driven> {
  const sleep = o.sleep ?? abortableSleep;
  const base = withoutRoundFields(o.params);
  let params = o.params;
  let asks = 0;
  for (let round = 1; ; round++) {
    const result = await o.send(params);
    if (!isInputRequired(result) || o.manual) return { result, rounds: round, asks };
    const requests = inputRequestsOf(result);
    const state = result.requestState;
    const keys = Object.keys(requests ?? {});
    if (round > o.maxInputRounds) throw new MaxInputRoundsError(o.method, round, keys);
    if (!keys.length && typeof state !== 'string') {
      throw new FrameworkError(
        'OMC_CLIENT_BAD_REPLY',
        `${o.method}: the server answered input_required with neither inputRequests nor requestState.`,
      );
    }
    let responses: Record<string, JsonObject> | undefined;
    if (keys.length) {
      responses = await o.answer(requests!);
      asks += keys.length;
    } else {
      await sleep(o.stateOnlyBackoffMs, o.signal);
    }
    params = { ...base };
    if (responses) params.inputResponses = responses;
    if (typeof state === 'string') params.requestState = state;
  }
}

function inputRequestsOf(result: JsonObject): InputRequestMap | undefined {
  const r = result.inputRequests;
  if (r === undefined || r === null) return undefined;
  if (typeof r !== 'object' || Array.isArray(r))
    throw new FrameworkError('OMC_CLIENT_BAD_REPLY', 'inputRequests must be an object keyed by request key.');
  for (const [key, value] of Object.entries(r)) {
    if (typeof value !== 'object' || value === null || typeof (value as JsonObject).method !== 'string') {
      throw new FrameworkError(
        'OMC_CLIENT_BAD_REPLY',
        `inputRequests["${key}"] is not an embedded request ({method, params}).`,
      );
    }
  }
  return r as InputRequestMap;
}

function withoutRoundFields(params: JsonObject): JsonObject {
  const { inputResponses: _r, requestState: _s, ...rest } = params;
  return rest;
}
