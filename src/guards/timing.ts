/**
 * `Timing(sink?)`: an interceptor that reports each round's attempt (method, target, round, how it
 * ended, milliseconds) to `sink`; by default one line on stderr (never stdout: on stdio it carries
 * only MCP messages).
 */
import type { CallNext, ExecutionContext, Interceptor } from '../server/pipeline/types';
import { isInputRequired } from '../server/pipeline/signals';

export interface TimingEntry {
  method: string;
  target: string;
  principal?: string;
  round: number;
  outcome: 'complete' | 'input_required' | 'error';
  ms: number;
}

export type TimingSink = (entry: TimingEntry) => void;

const stderrSink: TimingSink = (entry) => process.stderr.write(`[onemodelcontext] timing: ${JSON.stringify(entry)}\n`);

export function Timing(sink: TimingSink = stderrSink): Interceptor {
  return {
    runs: 'everyRound',
    async intercept(ctx: ExecutionContext, next: CallNext): Promise<unknown> {
      const start = performance.now();
      let outcome: TimingEntry['outcome'] = 'error';
      try {
        const value = await next();
        outcome = ctx.flow?.completes === false ? 'input_required' : 'complete';
        return value;
      } catch (e) {
        if (isInputRequired(e)) outcome = 'input_required';
        throw e;
      } finally {
        const entry: TimingEntry = {
          method: ctx.method,
          target: ctx.target,
          round: ctx.flow?.round ?? 1,
          outcome,
          ms: Math.round((performance.now() - start) * 1000) / 1000,
        };
        if (ctx.principal) entry.principal = ctx.principal.id;
        try {
          sink(entry);
        } catch {
          // A failing sink never fails the call.
        }
      }
    },
  };
}
