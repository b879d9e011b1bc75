/**
 * `ResultSizeLimit(maxBytes)`: an interceptor that refuses a handler's result whose JSON is larger
 * than `maxBytes` (UTF-8) with OMC_RESULT_TOO_LARGE (a tool error for a tool, -32603 with the
 * message otherwise), so one oversized answer cannot flood the client or the model's context.
 */
import { FrameworkError } from '../errors/framework-error';
import type { CallNext, ExecutionContext, Interceptor } from '../server/pipeline/types';

export function ResultSizeLimit(maxBytes: number): Interceptor {
  if (!Number.isInteger(maxBytes) || maxBytes <= 0) {
    throw new RangeError(`ResultSizeLimit: maxBytes must be a positive integer, got ${maxBytes}`);
  }
  return {
    runs: 'everyRound',
    async intercept(ctx: ExecutionContext, next: CallNext): Promise<unknown> {
      const value = await next();
      const json = typeof value === 'string' ? value : JSON.stringify(value);
      const size = json === undefined ? 0 : Buffer.byteLength(json, 'utf8');
      if (size > maxBytes) {
        throw new FrameworkError(
          'OMC_RESULT_TOO_LARGE',
          `The ${ctx.kind} ${ctx.target} returned ${size} bytes, more than its limit of ${maxBytes}`,
        );
      }
      return value;
    },
  };
}
