/**
 * Calls a definition's handler. Provider classes are resolved per request (DESIGN D8): a class
 * whose constructor takes dependencies gets a child container holding this request's Context.
 */
import type { DependencyContainer } from 'tsyringe';
import { Context } from '../context/context';
import { MetadataStore } from '../metadata/store';
import { isContextType, type HandlerSource } from '../registry/definitions';

export const PRINCIPAL = Symbol.for('onemodelcontext:principal');

export class Invoker {
  private readonly needsChild = new Map<Function, boolean>();

  constructor(private readonly root: DependencyContainer) {}

  async invoke(source: HandlerSource, input: unknown, ctx: Context): Promise<unknown> {
    if (source.kind === 'function') return source.fn(input, ctx as never);
    const instance = this.instance(source.cls, ctx) as Record<string, (...a: unknown[]) => unknown>;
    const args = source.paramTypes.map((t) => (isContextType(t) ? ctx : t === AbortSignal ? ctx.signal : input));
    return instance[source.method]!(...args);
  }

  /** Calls with explicit arguments (completions): no request Context is built for these. */
  async invokeWith(source: HandlerSource, args: unknown[]): Promise<unknown> {
    if (source.kind === 'function') return (source.fn as (...a: unknown[]) => unknown)(...args);
    const instance = this.root.resolve(source.cls as new () => unknown) as Record<string, (...a: unknown[]) => unknown>;
    return instance[source.method]!(...args);
  }

  private instance(cls: Function, ctx: Context): unknown {
    let child = this.needsChild.get(cls);
    if (child === undefined) {
      child = (MetadataStore.constructorParamTypes(cls)?.length ?? 0) > 0;
      this.needsChild.set(cls, child);
    }
    if (!child) return this.root.resolve(cls as new () => unknown);
    const scope = this.root.createChildContainer();
    scope.register(Context, { useValue: ctx });
    scope.register(PRINCIPAL, { useValue: ctx.principal });
    return scope.resolve(cls as new () => unknown);
  }
}
