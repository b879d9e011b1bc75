/**
 * Calls a definition's handler. Provider classes are resolved per request (DESIGN D8): a class
 * whose constructor takes dependencies gets a child container holding this request's Context.
 */
import type { DependencyContainer } from 'tsyringe';
import { Context } from '../../context/context';
import { MetadataStore } from '../../metadata/store';
import { isContextType, type HandlerSource } from '../../registry/definitions';

export const PRINCIPAL = Symbol.for('onemodelcontext:principal');

type Make = (ctx: Context) => unknown;
type ArgKind = 'context' | 'signal' | 'input';

function argOf(kind: ArgKind, input: unknown, ctx: Context): unknown {
  return kind === 'context' ? ctx : kind === 'signal' ? ctx.signal : input;
}

export class Invoker {
  /** How to get an instance of each provider class, decided on first use. */
  private readonly makers = new Map<Function, Make>();
  private readonly argKinds = new WeakMap<HandlerSource, readonly ArgKind[]>();

  constructor(private readonly root: DependencyContainer) {}

  /**
   * The handler's return value (a promise or not). Not async: a synchronous handler's value needs no promise; a
   * synchronous throw reaches the caller as a throw, which awaits it inside its try.
   */
  invoke(source: HandlerSource, input: unknown, ctx: Context): unknown {
    if (source.kind === 'function') return source.fn(input, ctx as never);
    const instance = this.instance(source.cls, ctx) as Record<string, (...a: unknown[]) => unknown>;
    const kinds = this.kinds(source);
    const method = source.method;
    if (kinds.length === 0) return instance[method]!();
    if (kinds.length === 1) return instance[method]!(argOf(kinds[0]!, input, ctx));
    return instance[method]!(...kinds.map((k) => argOf(k, input, ctx)));
  }

  /** Calls with explicit arguments (completions): no request Context is built for these. */
  async invokeWith(source: HandlerSource, args: unknown[]): Promise<unknown> {
    if (source.kind === 'function') return (source.fn as (...a: unknown[]) => unknown)(...args);
    const instance = this.root.resolve(source.cls as new () => unknown) as Record<string, (...a: unknown[]) => unknown>;
    return instance[source.method]!(...args);
  }

  private instance(cls: Function, ctx: Context): unknown {
    let make = this.makers.get(cls);
    if (!make) {
      make = this.maker(cls as new () => unknown);
      this.makers.set(cls, make);
    }
    return make(ctx);
  }

  /** What each parameter receives, computed once per handler. */
  private kinds(source: Extract<HandlerSource, { kind: 'method' }>): readonly ArgKind[] {
    let kinds = this.argKinds.get(source);
    if (!kinds) {
      kinds = source.paramTypes.map((t) => (isContextType(t) ? 'context' : t === AbortSignal ? 'signal' : 'input'));
      this.argKinds.set(source, kinds);
    }
    return kinds;
  }

  /**
   * Registered classes (e.g. @singleton) resolve through the container; classes with constructor
   * dependencies get a child container holding this request's Context; the rest are plain `new`
   * (what the container would do, without its lookups on the hot path).
   */
  private maker(cls: new () => unknown): Make {
    if (this.root.isRegistered(cls, true)) return () => this.root.resolve(cls);
    if ((MetadataStore.constructorParamTypes(cls)?.length ?? 0) === 0) return () => new cls();
    return (ctx) => {
      const scope = this.root.createChildContainer();
      scope.register(Context, { useValue: ctx });
      scope.register(PRINCIPAL, { useValue: ctx.principal });
      return scope.resolve(cls);
    };
  }
}
