/**
 * Registers the configuration modules in the app's container and reads back the options the app
 * is built from. A token two modules configure is refused (which one would win is an accident of
 * order); the server and requestState options fall back to their defaults when no module gives them.
 */
import type { DependencyContainer, InjectionToken } from 'tsyringe';
import { moduleTokens, type ConfigModule } from '../config/modules';
import { optionsError } from '../config/validate-options';
import { SERVER_OPTIONS } from '../server/core/server-module';
import { resolveServerOptions, type ContextServerOptions } from '../server/core/server-options';
import { REQUEST_STATE_OPTIONS, RequestStateModule } from '../state/request-state-module';
import { pickRequestStateOptions, type RequestStateOptions } from '../state/request-state-options';

export interface AppOptions {
  readonly server: Readonly<ContextServerOptions>;
  readonly requestState: Readonly<RequestStateOptions>;
}

function tokenName(token: InjectionToken<unknown>): string {
  if (typeof token === 'symbol') return token.description ?? token.toString();
  return typeof token === 'function' ? token.name : String(token);
}

function assertDistinctTokens(modules: readonly ConfigModule[]): void {
  const seen = new Set<InjectionToken<unknown>>();
  for (const token of modules.flatMap(moduleTokens)) {
    if (seen.has(token)) {
      throw optionsError('ApplicationOptions', [
        {
          field: 'modules',
          message: `${tokenName(token)} is configured by two modules; give each module once `
            + '(ContextServerModule.configure also configures the requestState options)',
        },
      ]);
    }
    seen.add(token);
  }
}

export function registerModules(container: DependencyContainer, modules: readonly ConfigModule[]): AppOptions {
  assertDistinctTokens(modules);
  for (const m of modules) m.register(container);
  if (!container.isRegistered(SERVER_OPTIONS)) {
    // The defaults, with the options of a RequestStateModule given alone, so app.options tells the whole truth.
    const state = container.isRegistered(REQUEST_STATE_OPTIONS)
      ? pickRequestStateOptions(container.resolve(REQUEST_STATE_OPTIONS))
      : {};
    container.register(SERVER_OPTIONS, { useValue: resolveServerOptions(state) });
  }
  const server = container.resolve(SERVER_OPTIONS);
  if (!container.isRegistered(REQUEST_STATE_OPTIONS)) RequestStateModule.from(server).register(container);
  return { server, requestState: container.resolve(REQUEST_STATE_OPTIONS) };
}
