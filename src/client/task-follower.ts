/**
 * Follows a task (SEP-2663) to its end: polls `tasks/get` at the server's `pollIntervalMs`,
 * answers each input request once (the same input handlers as an `input_required` round) with
 * `tasks/update`, and returns the inlined result of a completed task. A failed task throws its
 * JSON-RPC error, a cancelled one a FrameworkError; aborting the signal cancels the task.
 */
import { FrameworkError } from '../errors/framework-error';
import type { JsonObject, JsonRpcErrorObject } from '../protocol/jsonrpc';
import type { InputRequestMap } from './mrtr-driver';
import { serverErrorOf } from './server-errors';

/** What a caller sees of a task while it runs. */
export interface TaskStatusView {
  taskId: string;
  status: string;
  statusMessage?: string;
}

export interface FollowOptions {
  /** The CreateTaskResult the call answered. */
  created: JsonObject;
  get(taskId: string): Promise<JsonObject>;
  update(taskId: string, inputResponses: Record<string, JsonObject>): Promise<void>;
  cancel(taskId: string): Promise<void>;
  answer(requests: InputRequestMap): Promise<Record<string, JsonObject>>;
  signal: AbortSignal;
  onStatus?: (task: TaskStatusView) => void;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Followed {
  result: JsonObject;
  polls: number;
  asks: number;
}

const MIN_POLL_MS = 10;
const MAX_POLL_MS = 60_000;
const DEFAULT_POLL_MS = 500;

function pollDelay(task: JsonObject): number {
  const ms = task.pollIntervalMs;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, ms));
}

export async function followTask(o: FollowOptions): Promise<Followed> {
  const taskId = o.created.taskId;
  if (typeof taskId !== 'string' || taskId === '') {
    throw new FrameworkError('OMC_CLIENT_BAD_REPLY', 'The server answered a task without a taskId.');
  }
  const answered = new Set<string>();
  let task = o.created;
  let polls = 0;
  let asks = 0;
  try {
    for (;;) {
      o.onStatus?.(statusView(taskId, task));
      switch (task.status) {
        case 'completed':
          if (typeof task.result !== 'object' || task.result === null) {
            throw new FrameworkError('OMC_CLIENT_BAD_REPLY', `Task ${taskId} completed without a result.`);
          }
          return { result: task.result as JsonObject, polls, asks };
        case 'failed':
          throw serverErrorOf(errorOf(task));
        case 'cancelled':
          throw new FrameworkError('OMC_CLIENT_TASK_CANCELLED', `Task ${taskId} was cancelled.`);
        case 'input_required': {
          const pending = Object.entries((task.inputRequests ?? {}) as InputRequestMap).filter(
            ([key]) => !answered.has(key),
          );
          if (pending.length > 0) {
            const responses = await o.answer(Object.fromEntries(pending));
            for (const [key] of pending) answered.add(key);
            asks += pending.length;
            await o.update(taskId, responses);
            break;
          }
          await o.sleep(pollDelay(task), o.signal);
          break;
        }
        default:
          await o.sleep(pollDelay(task), o.signal);
      }
      task = await o.get(taskId);
      polls++;
    }
  } catch (e) {
    // The caller gave up: tell the server (best effort) so the work stops.
    if (o.signal.aborted) await o.cancel(taskId).catch(() => undefined);
    throw e;
  }
}

function statusView(taskId: string, task: JsonObject): TaskStatusView {
  const view: TaskStatusView = { taskId, status: String(task.status) };
  if (typeof task.statusMessage === 'string') view.statusMessage = task.statusMessage;
  return view;
}

function errorOf(task: JsonObject): JsonRpcErrorObject {
  const e = task.error as Partial<JsonRpcErrorObject> | undefined;
  return {
    code: typeof e?.code === 'number' ? e.code : -32603,
    message: typeof e?.message === 'string' ? e.message : 'The task failed',
    ...(e?.data === undefined ? {} : { data: e.data }),
  };
}
