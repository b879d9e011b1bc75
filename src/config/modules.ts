/** Configuration modules: frozen, validated options registered under a token at bootstrap. */
import type { DependencyContainer, InjectionToken } from 'tsyringe';

export interface ConfigModule<T = unknown> {
  readonly token: InjectionToken<T>;
  readonly options: Readonly<T>;
  register(container: DependencyContainer): void;
}

export function defineModule<T extends object>(token: InjectionToken<T>, options: Readonly<T>): ConfigModule<T> {
  return Object.freeze({
    token,
    options,
    register: (c: DependencyContainer) => void c.register(token, { useValue: options }),
  });
}
