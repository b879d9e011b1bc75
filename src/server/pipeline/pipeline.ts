/**
 * One handler's guards, interceptors and filters, resolved, and how they run around an attempt:
 * guards first (any `false` refuses), then the interceptors that apply to this round (outermost
 * first), then the handler; what they throw goes through the filters (innermost first). Guard and
 * interceptor code runs beside the attempt's effect watch: the replay linter judges the handler only.
 */
import { attemptWatched, besideAttempt } from '../../context/effect-watch';
import type { CallExecution } from './execution';
import type { Context } from '../../context/context';
import type { Principal } from '../../context/principal';
import { GuardRefusal, isInputRequired } from './signals';
import type { CanActivate, ExceptionFilter, ExecutionContext, Interceptor } from './types';

/**
 * An instance for this request (one for the app, or one per request for request-scoped classes);
 * `shared` is that one instance when there is one.
 */
export type Make<T> = ((ctx: () => Context | undefined, principal: Principal | undefined) => T) & { shared?: T };

/** What the engine tells the pipeline about a real attempt (the linter's dry replay has none). */
export interface AttemptInfo {
  readonly round: number;
  /** Asked once the handler settled: whether the attempt completes the flow. */
  completes(): boolean;
}

type Inner = (handler: () => unknown) => unknown;
const direct: Inner = (handler) => handler();

function sharedAll<T>(makes: readonly Make<T>[]): readonly T[] | undefined {
  return makes.every((m) => m.shared !== undefined) ? makes.map((m) => m.shared as T) : undefined;
}

export class Pipeline {
  /** The instances, when every one is shared (no per-request construction). */
  private readonly sharedGuards: readonly CanActivate[] | undefined;
  private readonly sharedInterceptors: readonly Interceptor[] | undefined;

  constructor(
    readonly guards: readonly Make<CanActivate>[],
    readonly interceptors: readonly Make<Interceptor>[],
    /** Innermost first. */
    readonly filters: readonly Make<ExceptionFilter>[],
  ) {
    this.sharedGuards = sharedAll(guards);
    this.sharedInterceptors = sharedAll(interceptors);
  }

  /** Whether every guard lets this caller see the item (a guard that throws hides it). */
  async visible(ctx: ExecutionContext, context: () => Context | undefined): Promise<boolean> {
    for (const make of this.guards) {
      if ((await make(context, ctx.principal).canActivate(ctx)) !== true) return false;
    }
    return true;
  }

  /** Runs a real attempt: guards, this round's interceptors, the handler; filters on what was thrown. */
  run(ctx: CallExecution, attempt: AttemptInfo, handler: () => unknown): Promise<unknown> {
    return attemptWatched()
      ? besideAttempt((inner) => this.attempt(ctx, attempt, handler, (h) => inner(async () => h())))
      : this.attempt(ctx, attempt, handler, direct);
  }

  private async attempt(ctx: CallExecution, attempt: AttemptInfo, handler: () => unknown, inner: Inner) {
    try {
      const guards = this.sharedGuards ?? this.guards.map((make) => make(() => ctx.context, ctx.principal));
      for (const guard of guards) {
        const allowed = guard.canActivate(ctx);
        if (allowed !== true && (await allowed) !== true) throw GuardRefusal.instance;
      }
      const chain =
        this.sharedInterceptors ?? this.interceptors.map((make) => make(() => ctx.context, ctx.principal));
      return await this.step(chain, 0, ctx, attempt, handler, inner);
    } catch (error) {
      if (error === GuardRefusal.instance || isInputRequired(error) || this.filters.length === 0) throw error;
      return this.filter(error, ctx);
    }
  }

  private step(
    chain: readonly Interceptor[],
    i: number,
    ctx: CallExecution,
    attempt: AttemptInfo,
    handler: () => unknown,
    inner: Inner,
  ): Promise<unknown> {
    const it = chain[i];
    if (!it) return this.innermost(ctx, attempt, handler, inner);
    const next = () => this.step(chain, i + 1, ctx, attempt, handler, inner);
    const runs = it.runs ?? 'everyRound';
    if (runs === 'firstRound' && !ctx.flow.firstRound) return next();
    if (runs !== 'completion') return Promise.resolve(it.intercept(ctx, next));
    return this.atCompletion(it, ctx, next);
  }

  /** The handler, then whether the attempt completes; a synchronous handler's value costs no extra await. */
  private innermost(ctx: CallExecution, attempt: AttemptInfo, handler: () => unknown, inner: Inner): Promise<unknown> {
    let value: unknown;
    try {
      value = inner(handler);
    } catch (e) {
      ctx.flow.completes = isInputRequired(e) ? false : attempt.completes();
      return Promise.reject(e);
    }
    if (!(value instanceof Promise)) {
      ctx.flow.completes = attempt.completes();
      return Promise.resolve(value);
    }
    return value.then(
      (v: unknown) => {
        ctx.flow.completes = attempt.completes();
        return v;
      },
      (e: unknown) => {
        ctx.flow.completes = isInputRequired(e) ? false : attempt.completes();
        throw e;
      },
    );
  }

  /** A completion interceptor: the rest runs first; it is called only when the attempt completes the flow. */
  private async atCompletion(it: Interceptor, ctx: CallExecution, next: () => Promise<unknown>): Promise<unknown> {
    let settled: { ok: true; value: unknown } | { ok: false; error: unknown };
    try {
      settled = { ok: true, value: await next() };
    } catch (error) {
      if (ctx.flow.completes !== true) throw error;
      settled = { ok: false, error };
    }
    if (ctx.flow.completes !== true) return settled.ok ? settled.value : undefined;
    const done = settled;
    return it.intercept(ctx, () => (done.ok ? Promise.resolve(done.value) : Promise.reject(done.error)));
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
