/**
 * Where tasks (SEP-2663) live between the requests that create, poll, answer and cancel them. The
 * store keeps an opaque JSON value per task id, with its owner (the principal tag the server
 * computed), a version for compare-and-set updates, and an absolute expiry after which the task
 * may be forgotten. A shared store (Redis) lets any instance of a fleet serve any task.
 */

export interface StoredTask {
  readonly owner: string;
  /** Bumped by every successful `replace`. */
  readonly version: number;
  readonly value: string;
  /** Epoch ms after which the store may forget the task. */
  readonly expiresAt: number;
}

export interface TaskStore {
  /**
   * Stores a new task, unless `owner` already holds `maxPerOwner` unexpired tasks (`'full'`).
   * Resolves only once a `get` of `id` (on any instance) would find it: task creation is
   * strongly consistent (SEP-2663 §Task Creation).
   */
  create(id: string, owner: string, value: string, expiresAt: number, maxPerOwner: number): Promise<'created' | 'full'>;
  /** The task, or undefined when unknown or expired. */
  get(id: string): Promise<StoredTask | undefined>;
  /** Replaces the value when the version is still `version`; false when it changed or the task is gone. */
  replace(id: string, version: number, value: string): Promise<boolean>;
  /** Forgets the task (and its place in its owner's count). */
  delete(id: string): Promise<void>;
}
