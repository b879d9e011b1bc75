/**
 * Who runs a task's current round: an owner lease in the task record (`runner`), renewed while the
 * round runs here. A task whose runner's lease lapsed (its instance died, or handed the round back
 * at shutdown) is taken over by the instance that next reads it: a round that continues a flow
 * (it has the flow's sealed requestState) replays there like any 2026 round, with its answers and
 * its `ctx.once` records; a first round has no journal to resume from and fails, saying why.
 * Leases compare the instances' clocks (keep them in sync, as for any fleet).
 */
import { randomBytes } from 'node:crypto';
import type { TaskStore } from '../../state/task-store';
import { decodeTask, isTerminal, type TaskRecord } from './task-record';

/** This process's runner ids: a random prefix and a counter (one per round run here). */
/** Drawn on first use, not at import: edge runtimes (Workers) refuse random values in the global scope. */
let prefix: string | undefined;
let runs = 0;

export function newRunnerId(): string {
  prefix ??= randomBytes(9).toString('base64url');
  return `${prefix}.${(++runs).toString(36)}`;
}

/** The runner id a handed-back round is given: no live instance has it, so its lease is lapsed. */
export const HANDED_BACK = 'handed-back';

export const FIRST_ROUND_LOST =
  'The instance running this task stopped during its first round; the round is not run again, since it may have had effects (call the tool again)';

export function leased(r: TaskRecord, runnerId: string, leaseMs: number): TaskRecord {
  return { ...r, runner: { id: runnerId, until: Date.now() + leaseMs } };
}

/** Whether the record's running round has lost its runner (only a `working` task runs a round). */
export function orphaned(r: TaskRecord, now = Date.now()): boolean {
  return r.status === 'working' && r.runner !== undefined && r.runner.until <= now;
}

/** Whether a round's outcome may still be written by this runner (it was not taken over). */
export function stillRuns(r: TaskRecord, runnerId: string): boolean {
  return r.runner === undefined || r.runner.id === runnerId;
}

/**
 * Writes `change(record)` with compare-and-set, keeping `lastUpdatedAt` (a lease is bookkeeping,
 * not a change of the task). False when the record moved on or `change` declined.
 */
export async function rewriteRunner(
  store: TaskStore,
  taskId: string,
  change: (r: TaskRecord) => TaskRecord | undefined,
): Promise<boolean> {
  const stored = await store.get(taskId);
  const current = stored && decodeTask(stored.value);
  if (!stored || !current || isTerminal(current.status)) return false;
  const next = change(current);
  return next !== undefined && (await store.replace(taskId, stored.version, JSON.stringify(next)));
}
