/** What a task round's outcome makes of its record: completed, failed, input_required, or the next round. */
import { ProtocolError } from '../../errors/protocol-error';
import type { JsonObject } from '../../protocol/jsonrpc';
import type { Outcome } from '../replay/engine-types';
import type { TaskRecord } from './task-record';

export type Settled = { ok: true; value: Outcome<JsonObject> } | { ok: false; error: unknown };

export function outcomeOf(
  r: TaskRecord,
  s: Settled,
  maxTaskResultBytes: number,
  logFailure: (e: unknown) => void,
): TaskRecord {
  const base = {
    ...r,
    inputRequests: undefined,
    answers: undefined,
    keyMap: undefined,
    statusMessage: undefined,
    runner: undefined,
  };
  // An ended task runs nothing again: its digest stands for the arguments from here on.
  const ended = { ...base, call: { ...r.call, arguments: undefined } };
  if (!s.ok) {
    const e = s.error;
    if (!(e instanceof ProtocolError)) logFailure(e);
    const error =
      e instanceof ProtocolError
        ? { code: e.code, message: e.message, ...(e.data === undefined ? {} : { data: e.data }) }
        : { code: -32603, message: 'Internal error' };
    return { ...ended, status: 'failed', statusMessage: error.message, error };
  }
  const o = s.value;
  if (o.kind === 'complete') {
    const size = Buffer.byteLength(JSON.stringify(o.value));
    if (size > maxTaskResultBytes) {
      const message = `The task result (${size} bytes) exceeds maxTaskResultBytes (${maxTaskResultBytes})`;
      return { ...ended, status: 'failed', statusMessage: message, error: { code: -32603, message } };
    }
    return { ...ended, status: 'completed', result: o.value };
  }
  const requests = (o.result.inputRequests ?? {}) as JsonObject;
  const requestState = o.result.requestState as string | undefined;
  if (Object.keys(requests).length === 0) return { ...base, status: 'working', requestState, round: r.round + 1 };
  const used = new Set(r.usedKeys ?? []);
  const keyMap: Record<string, string> = {};
  const inputRequests: JsonObject = {};
  for (const [key, request] of Object.entries(requests)) {
    let wire = key;
    for (let n = 2; used.has(wire); n++) wire = `${key}#${n}`;
    used.add(wire);
    keyMap[wire] = key;
    inputRequests[wire] = request;
  }
  return { ...base, status: 'input_required', inputRequests, keyMap, usedKeys: [...used], requestState };
}
