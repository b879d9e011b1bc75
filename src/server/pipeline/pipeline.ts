/**
 * One handler's guards, interceptors and filters, resolved, and how they run around an attempt:
 * guards first (any `false` refuses), then the interceptors that apply to this round (outermost
 * first), then the handler; what they throw goes through the filters (innermost first). Guard and
 * interceptor code runs beside the attempt's effect watch: the replay linter judges the handler only.
 */
import { besideAttempt } from '../../context/effect-watch';
import type { Context } from '../../context/context';
import type { Principal } from '../../context/principal';
import { GuardRefusal, isInputRequired } from './signals';
import type { CanActivate, ExceptionFilter, ExecutionContext, FlowInfo, Interceptor } from './types';

/** An instance for this request (one for the app, or one per request for request-scoped classes). */
export type Make<T> = (ctx: () => Context | undefined, principal: Principal | undefined) => T;

/** What the engine tells the pipeline about a real attempt (the linter's dry replay has none). */
export interface AttemptInfo {
  readonly round: number;
  /** Asked once the handler settled: whether the attempt completes the flow. */
  completes(): boolean;
}

export type CallBase = Omit<ExecutionContext, 'flow' | 'phase'>;

export class Pipeline {
  constructor(
    readonly guards: readonly Make<CanActivate>[],
    readonly interceptors: readonly Make<Interceptor>[],
    /** Innermost first. */
    readonly filters: readonly Make<ExceptionFilter>[],
  ) {}

  /** Whether every guard lets this caller see the item (a guard that throws hides it). */
  async visible(ctx: ExecutionContext, context: () => Context | undefined): Promise<boolean> {
    for (const make of this.guards) {
      if ((await make(context, ctx.principal).canActivate(ctx)) !== true) return false;
    }
    return true;
  }

  async run(base: CallBase, attempt: AttemptInfo, handler: () => Promise<unknown>): Promise<unknown> {
    let completes: boolean | undefined;
    const round = attempt.round;
    const flow: FlowInfo = {
      round,
      firstRound: round === 1,
      get completes() {
        return completes;
      },
    };
    const ctx: ExecutionContext = { ...base, phase: 'call', flow };
    const context = () => base.context;
    return besideAttempt(async (inner) => {
      try {
        for (const make of this.guards) {
          if ((await make(context, ctx.principal).canActivate(ctx)) !== true) throw GuardRefusal.instance;
        }
        const chain = this.interceptors.map((make) => make(context, ctx.principal));
        const call = async (i: number): Promise<unknown> => {
          const it = chain[i];
          if (!it) {
            try {
              const value = await inner(handler);
              completes = attempt.completes();
              return value;
            } catch (e) {
              completes = isInputRequired(e) ? false : attempt.completes();
              throw e;
            }
          }
          const runs = it.runs ?? 'everyRound';
          if (runs === 'firstRound' && round !== 1) return call(i + 1);
          if (runs !== 'completion') return it.intercept(ctx, () => call(i + 1));
          let settled: { ok: true; value: unknown } | { ok: false; error: unknown };
          try {
            settled = { ok: true, value: await call(i + 1) };
          } catch (error) {
            if (completes !== true) throw error;
            settled = { ok: false, error };
          }
          if (completes !== true) return settled.ok ? settled.value : undefined;
          const done = settled;
          return it.intercept(ctx, () => (done.ok ? Promise.resolve(done.value) : Promise.reject(done.error)));
        };
        return await call(0);
      } catch (error) {
        if (error === GuardRefusal.instance || isInputRequired(error) || this.filters.length === 0) throw error;
        return this.filter(error, ctx);
      }
    });
  }

  private async filter(error: unknown, ctx: ExecutionContext): Promise<unknown> {
    let current = error;
    for (const make of this.filters) {
      try {
        return await make(() => ctx.context, ctx.principal).catch(current, ctx);
      } catch (next) {
        current = next;
      }
    }
    throw current;
  }
}
