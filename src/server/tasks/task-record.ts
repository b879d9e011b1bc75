/**
 * A task as the server stores it, and the two wire views of it (SEP-2663 as the 2026-07-28
 * conformance suite checks it): the flat `CreateTaskResult` and the `DetailedTask` of `tasks/get`.
 * Neither carries `requestState`: the flow's sealed state stays in the record, server-side.
 */
import type { Principal } from '../../context/principal';
import type { JsonObject } from '../../protocol/jsonrpc';
import type { ClientCapabilities, Implementation } from '../../protocol/types';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** What a later round needs to run the call again, on any instance. */
export interface TaskCall {
  tool: string;
  requestId: string | number;
  /** Kept while later rounds may replay them (counted under maxTaskArgumentBytes); dropped when the task ends. */
  arguments?: JsonObject;
  /** SHA-256 (base64url) of the arguments' JSON: what an ended task keeps of them. */
  argumentsDigest?: string;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** JSON copy of the principal that created the task (claims that are not JSON are dropped). */
  principal?: Principal;
}

export interface TaskRecord {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** The round now running or waiting for input; a round's outcome is kept only if it is still current. */
  round: number;
  /** input_required: the requests not answered yet, by wire key. */
  inputRequests?: JsonObject;
  /** The current round's wire keys → the handler's ask keys (they differ when an ask key comes back). */
  keyMap?: Record<string, string>;
  /** Every wire key issued so far: a key is never reused over the task's life (SEP-2663). */
  usedKeys?: string[];
  /** Answers collected for the current round's requests. */
  answers?: JsonObject;
  /** The flow's sealed requestState for the next round. */
  requestState?: string;
  result?: JsonObject;
  error?: { code: number; message: string; data?: unknown };
  call: TaskCall;
  /** The instance running the current round and its lease (epoch ms), while a round runs (task-runner.ts). */
  runner?: { id: string; until: number };
}

const STATUSES: ReadonlySet<string> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** Parses a stored value; undefined when it is not a task record (a foreign or corrupted entry). */
export function decodeTask(value: string): TaskRecord | undefined {
  try {
    const r = JSON.parse(value) as TaskRecord;
    if (typeof r?.taskId !== 'string' || !STATUSES.has(r.status) || typeof r.call?.tool !== 'string') return undefined;
    return r;
  } catch {
    return undefined;
  }
}

function base(r: TaskRecord): JsonObject {
  const view: JsonObject = {
    taskId: r.taskId,
    status: r.status,
    createdAt: r.createdAt,
    lastUpdatedAt: r.lastUpdatedAt,
    ttlMs: r.ttlMs,
    pollIntervalMs: r.pollIntervalMs,
  };
  if (r.statusMessage !== undefined) view.statusMessage = r.statusMessage;
  return view;
}

/** `CreateTaskResult` (without resultType, which the dispatcher sets to "task"). */
export function createTaskView(r: TaskRecord): JsonObject {
  return base(r);
}

/** `DetailedTask` for tasks/get: inputRequests, result or error inlined by status. */
export function detailedTaskView(r: TaskRecord): JsonObject {
  const view = base(r);
  if (r.status === 'input_required') view.inputRequests = r.inputRequests ?? {};
  if (r.status === 'completed' && r.result) view.result = r.result;
  if (r.status === 'failed' && r.error) view.error = r.error as JsonObject;
  return view;
}
