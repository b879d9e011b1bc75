import type { Ask } from './asks';

/** How a Context gets answers: replayed from the journal (2026) or awaited from the client (legacy). */
export interface AskPort {
  readonly allowed: boolean;
  ask<T>(ask: Ask<T>): Promise<T>;
  /** Runs `fn` once per completed flow, replaying its recorded result afterwards. */
  once<T>(key: string, fn: () => T | Promise<T>): Promise<T>;
  /** Ends this round without a question (2026: requestState-only round; legacy: a short wait). */
  pause(key?: string): Promise<void>;
}
