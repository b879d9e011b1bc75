/** Progress inside a task: it becomes the task's status message. */
import type { JsonRpcNotification } from '../../protocol/jsonrpc';

/** Stands in for a progressToken inside a task, so `ctx.progress` always reaches the task's status. */
export const TASK_PROGRESS_TOKEN = 'onemodelcontext/task-progress';
const MAX_STATUS_MESSAGE = 512;

/** A progress notification as a status message: its message, else `progress/total`. */
export function progressTextOf(m: JsonRpcNotification): string | undefined {
  if (m.method !== 'notifications/progress') return undefined;
  const p = m.params ?? {};
  const text =
    typeof p.message === 'string'
      ? p.message
      : typeof p.total === 'number'
        ? `${String(p.progress)}/${p.total}`
        : String(p.progress);
  return text.slice(0, MAX_STATUS_MESSAGE);
}

export function isTaskProgress(m: JsonRpcNotification): boolean {
  return m.method === 'notifications/progress' && m.params?.progressToken === TASK_PROGRESS_TOKEN;
}
