/**
 * Which `@Effect()` methods an attempt called outside `ctx.once` (for the replay linter). The
 * attempt runs inside an async context; `ctx.once` runs its function in a fenced one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { effectCalls } from '../metadata/effects';

interface Watch {
  readonly effects: string[];
  readonly fenced: boolean;
}

const watching = new AsyncLocalStorage<Watch>();

function observe(name: string): void {
  const watch = watching.getStore();
  if (watch && !watch.fenced) watch.effects.push(name);
}

/** Runs an attempt, collecting the unfenced effect calls it makes into `effects`. */
export function watchEffects<T>(effects: string[], attempt: () => T | Promise<T>): T | Promise<T> {
  effectCalls.observer ??= observe;
  return watching.run({ effects, fenced: false }, attempt);
}

/** Runs a `ctx.once` body: effects inside it are fenced. */
export function fenced<T>(fn: () => T | Promise<T>): T | Promise<T> {
  const watch = watching.getStore();
  return watch ? watching.run({ effects: watch.effects, fenced: true }, fn) : fn();
}

/** Whether an attempt's effects are being watched here (the replay linter is on). */
export function attemptWatched(): boolean {
  return watching.getStore() !== undefined;
}

/**
 * Runs framework-side code of an attempt (guards, interceptors) fenced, so its effects are not
 * reported as the handler's; `inner` runs the handler back in the attempt's own watch.
 */
export function besideAttempt<T>(
  fn: (inner: <U>(handler: () => Promise<U>) => Promise<U>) => Promise<T>,
): Promise<T> {
  const watch = watching.getStore();
  if (!watch) return fn((handler) => handler());
  return watching.run({ effects: watch.effects, fenced: true }, () =>
    fn((handler) => watching.run(watch, handler)),
  );
}
