/**
 * `Timeout(ms)`: an interceptor that stops waiting for a round's attempt after `ms` and fails it
 * with OMC_HANDLER_TIMEOUT (a tool error for a tool, -32603 with the message otherwise). The
 * handler is not stopped (JavaScript cannot): it should watch `ctx.signal` for the request's own
 * cancellation. On legacy revisions the attempt includes waiting for the client's answers.
 */
import { FrameworkError } from '../errors/framework-error';
import type { CallNext, ExecutionContext, Interceptor } from '../server/pipeline/types';

export function Timeout(ms: number): Interceptor {
  if (!Number.isInteger(ms) || ms <= 0) throw new RangeError(`Timeout: ms must be a positive integer, got ${ms}`);
  return {
    runs: 'everyRound',
    intercept(ctx: ExecutionContext, next: CallNext): Promise<unknown> {
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new FrameworkError('OMC_HANDLER_TIMEOUT', `The ${ctx.kind} ${ctx.target} did not answer within ${ms} ms`)),
          ms,
        );
      });
      const work = next();
      // A late failure of the abandoned attempt is not an unhandled rejection.
      work.catch(() => undefined);
      return Promise.race([work, expired]).finally(() => clearTimeout(timer));
    },
  };
}
