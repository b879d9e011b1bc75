/**
 * The "user" of a test: answers scripted per ask, by input-request key (2026) and/or by kind.
 * Legacy asks carry no key, so a key-scripted answer is used for the next unkeyed ask in script
 * order: write the script in the order the tool asks and it reads the same under both eras.
 */
import type { JsonObject } from '../protocol/jsonrpc';
import type { Era } from '../protocol/versions';

export type AskKind = 'elicitation' | 'urlElicitation' | 'sampling' | 'roots';
export const ASK_KINDS: readonly AskKind[] = ['elicitation', 'urlElicitation', 'sampling', 'roots'];

/** One ask the server made, as the test kit saw it. */
export interface RecordedAsk {
  kind: AskKind;
  /** Input-request key (2026 only). */
  key?: string;
  params: JsonObject;
  era: Era;
}

export type Answer = object | ((params: JsonObject, ask: RecordedAsk) => object | Promise<object>);
/** Keys are input-request keys (e.g. `user_name`) or kinds (`elicitation`, `urlElicitation`, `sampling`, `roots`). */
export type ScriptedAnswers = Record<string, Answer>;

export class AnswerScript {
  private used = new Set<string>();

  constructor(private readonly answers: ScriptedAnswers = {}) {}

  /** A new call: key-scripted answers become available again for unkeyed (legacy) asks. */
  reset(): void {
    this.used = new Set();
  }

  async answer(ask: RecordedAsk): Promise<object> {
    const chosen = this.choose(ask);
    if (chosen === undefined) {
      throw new Error(
        `No scripted answer for the ${ask.kind} ask${ask.key ? ` "${ask.key}"` : ''}: add \`${ask.key ?? ask.kind}\` to answers.`,
      );
    }
    const value = typeof chosen === 'function' ? await chosen(ask.params, ask) : chosen;
    return JSON.parse(JSON.stringify(value)) as object;
  }

  private choose(ask: RecordedAsk): Answer | undefined {
    if (ask.key !== undefined && this.has(ask.key)) {
      this.used.add(ask.key);
      return this.answers[ask.key];
    }
    if (this.has(ask.kind)) return this.answers[ask.kind];
    if (ask.key === undefined) {
      const next = Object.keys(this.answers).find(
        (k) => !this.used.has(k) && !(ASK_KINDS as readonly string[]).includes(k),
      );
      if (next !== undefined) {
        this.used.add(next);
        return this.answers[next];
      }
    }
    return undefined;
  }

  private has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.answers, key);
  }
}
