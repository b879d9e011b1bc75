/**
 * `ContextServerModule` (DESIGN D9): the server options, validated once and frozen, registered under
 * SERVER_OPTIONS; composed with the requestState module built from the same options.
 */
import type { InjectionToken } from 'tsyringe';
import { defineModule, type ConfigModule } from '../../config/modules';
import { RequestStateModule } from '../../state/request-state-module';
import { resolveServerOptions, type ContextServerInit, type ContextServerOptions } from './server-options';

export const SERVER_OPTIONS: InjectionToken<ContextServerOptions> = Symbol.for('onemodelcontext:server-options');

/** `ContextServerModule.configure({...})`: requestState sealing, asks, lists, auth. */
export class ContextServerModule {
  static configure(options: ContextServerInit = {}): ConfigModule<ContextServerOptions> {
    const server = resolveServerOptions(options);
    return defineModule(SERVER_OPTIONS, server, [RequestStateModule.from(server)]);
  }
}
