import type { Ask } from './asks';
import type { LowLevelInput } from './input-required-result';
import type { NotShownNote } from './ask-fallback';

/** How a Context gets answers: replayed from the journal (2026) or awaited from the client (legacy). */
export interface AskPort {
  readonly allowed: boolean;
  /** What a low-level handler reads after its InputRequired: this run's responses and its own state. */
  readonly input?: LowLevelInput;
  /** Questions of this call no person saw, each routed to its fallback (ports with a fallback only). */
  readonly notShown?: readonly NotShownNote[];
  ask<T>(ask: Ask<T>): Promise<T>;
  /** Runs `fn` once per completed flow, replaying its recorded result afterwards. */
  once<T>(key: string, fn: () => T | Promise<T>): Promise<T>;
  /** Ends this round without a question (2026: requestState-only round; legacy: a short wait). */
  pause(key?: string): Promise<void>;
}
