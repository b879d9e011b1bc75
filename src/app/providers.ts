/** The explicit provider list of an application (DESIGN D7): classes, or tsyringe-style provider objects. */
import type { DependencyContainer, InjectionToken } from 'tsyringe';
import { FrameworkError } from '../errors/framework-error';

export type ProviderObject =
  | { provide: InjectionToken; useValue: unknown }
  | { provide: InjectionToken; useClass: new (...args: never[]) => unknown }
  | { provide: InjectionToken; useFactory: (c: DependencyContainer) => unknown };
export type Provider = Function | ProviderObject;

/** A class or a `{ provide, useValue | useClass | useFactory }` object (the `providers` rule). */
export function isProvider(p: unknown): boolean {
  if (typeof p === 'function') return true;
  if (typeof p !== 'object' || p === null || !('provide' in p)) return false;
  return (
    'useValue' in p ||
    typeof (p as { useClass?: unknown }).useClass === 'function' ||
    typeof (p as { useFactory?: unknown }).useFactory === 'function'
  );
}

export function registerProvider(container: DependencyContainer, p: Provider): void {
  if (typeof p === 'function') return;
  if ('useValue' in p) container.register(p.provide, { useValue: p.useValue });
  else if ('useClass' in p) container.register(p.provide, { useClass: p.useClass as new () => unknown });
  else container.register(p.provide, { useFactory: p.useFactory });
}

/** The classes the container will construct: provider classes and `useClass` targets. */
export function constructedClasses(providers: readonly Provider[]): Function[] {
  return providers.flatMap((p) => (typeof p === 'function' ? [p] : 'useClass' in p ? [p.useClass] : []));
}

/** A class listed twice would declare its tools twice; say that, not "declared by T.ping and by T.ping". */
export function assertListedOnce(providers: readonly Provider[]): void {
  const seen = new Set<Function>();
  for (const p of providers) {
    if (typeof p !== 'function') continue;
    if (seen.has(p)) {
      throw new FrameworkError(
        'OMC_DUPLICATE_NAME',
        `${p.name || 'a class'} is listed twice in providers; list each class once.`,
      );
    }
    seen.add(p);
  }
}
