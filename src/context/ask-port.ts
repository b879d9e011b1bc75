import { FrameworkError } from '../errors/framework-error';
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

/** Port for methods that may not ask (lists, completion...): every ask is a developer error. */
export class NoAskPort implements AskPort {
  readonly allowed = false;
  constructor(private readonly method: string) {}
  ask<T>(): Promise<T> {
    return Promise.reject(this.error());
  }
  async once<T>(_key: string, fn: () => T | Promise<T>): Promise<T> {
    return fn();
  }
  pause(): Promise<void> {
    return Promise.reject(this.error());
  }
  private error() {
    return new FrameworkError(
      'OMC_ASK_NOT_ALLOWED',
      `${this.method} cannot ask the client for input; only tools/call, prompts/get and resources/read can.`,
    );
  }
}
