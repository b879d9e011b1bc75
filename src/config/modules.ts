/** Configuration modules (DESIGN D9): frozen, validated options registered under a token at bootstrap. */
import type { DependencyContainer, InjectionToken } from 'tsyringe';

export interface ConfigModule<T = unknown> {
  readonly token: InjectionToken<T>;
  readonly options: Readonly<T>;
  /** Modules this one is composed of (each registered with it), e.g. the requestState module of the server module. */
  readonly parts?: readonly ConfigModule[];
  register(container: DependencyContainer): void;
  /**
   * Start-up work that needs the built application (mounting upstream servers): run once, before
   * it serves (`serveHttp`, `serveStdio`, or `app.start()`); a failure fails start-up. Resolves to
   * what `app.close()` calls.
   */
  start?(app: object): Promise<() => Promise<void>>;
}

/** A module that registers `options` under `token`, then its `parts`. */
export function defineModule<T extends object>(
  token: InjectionToken<T>,
  options: Readonly<T>,
  parts: readonly ConfigModule[] = [],
): ConfigModule<T> {
  return Object.freeze({
    token,
    options,
    ...(parts.length ? { parts: Object.freeze([...parts]) } : {}),
    register: (c: DependencyContainer) => {
      c.register(token, { useValue: options });
      for (const part of parts) part.register(c);
    },
  });
}

/** Every token a module registers: its own, then its parts' (depth first). */
export function moduleTokens(module: ConfigModule): InjectionToken<unknown>[] {
  return [module.token, ...(module.parts ?? []).flatMap(moduleTokens)];
}
