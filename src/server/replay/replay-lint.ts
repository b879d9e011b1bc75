/**
 * The replay linter (`replayLint`: on in the test kit, 'warn' for development): a 2026 round that
 * ends in input_required is run a second time, dry, with the same answers; both attempts must ask
 * the same questions in the same order and reach the same `ctx.once` keys, or the handler is not
 * replay-safe (it asks from the clock, a random value, a changing list …). And an `@Effect()`
 * called outside `ctx.once` in such a round is reported: it runs again on every round.
 */
import { ProtocolError } from '../../errors/protocol-error';
import type { ReplayStep } from '../../context/replay-port';
import type { ServerLogger } from '../core/server-logger';

export type ReplayLintMode = 'off' | 'warn' | 'error';

function show(step: ReplayStep | undefined): string {
  if (!step) return 'nothing more';
  if (step.kind === 'once') return `ctx.once("${step.key}")`;
  if (step.kind === 'steered') return `the approval page's answer to "${step.key}"`;
  const params = step.question?.params as { message?: unknown } | undefined;
  const what =
    typeof params?.message === 'string' ? JSON.stringify(params.message) : JSON.stringify(step.question ?? 'a pause');
  return `ask "${step.key}" ${what.length > 200 ? `${what.slice(0, 200)}…` : what}`;
}

function same(a: ReplayStep, b: ReplayStep): boolean {
  return (
    a.kind === b.kind &&
    a.key === b.key &&
    (a.kind !== 'ask' || a.fingerprint === (b as { fingerprint: string }).fingerprint)
  );
}

/** What is wrong with a round: the first difference between the two runs, and unfenced effects. */
export function replayProblems(
  first: readonly ReplayStep[],
  second: readonly ReplayStep[],
  effects: readonly string[],
): string[] {
  const problems: string[] = [];
  // From where an approval page answered or took a question, the fallback steered the round: the
  // dry run (which opens no approval flows) cannot follow, so the runs are compared up to there.
  const steered = first.findIndex((s) => s.kind === 'steered');
  const length = steered >= 0 ? steered : Math.max(first.length, second.length);
  for (let i = 0; i < length; i++) {
    const a = first[i];
    const b = second[i];
    if (a && b && same(a, b)) continue;
    problems.push(
      `the handler is not deterministic: at step ${i + 1} the first run made ${show(a)}, the replay with the same answers made ${show(b)}`,
    );
    break;
  }
  for (const name of new Set(effects)) {
    problems.push(
      `@Effect ${name} ran outside ctx.once in a round that still asks: on 2026-07-28 it runs again on every round; move it after the last ask or into ctx.once`,
    );
  }
  return problems;
}

/** Reports a round's problems: a log line ('warn'), or a -32603 naming them ('error', the test kit). */
export function reportReplayProblems(
  mode: ReplayLintMode,
  logger: ServerLogger,
  target: string,
  problems: readonly string[],
): void {
  if (problems.length === 0 || mode === 'off') return;
  const message = `Replay lint (${target}): ${problems.join('; ')}`;
  if (mode === 'warn') return logger.warn(message);
  throw new ProtocolError(-32603, message);
}
