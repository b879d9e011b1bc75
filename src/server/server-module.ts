/** `ContextServerModule`: the server's options, validated and frozen, registered under SERVER_OPTIONS. */
import type { InjectionToken } from 'tsyringe';
import { defineModule, type ConfigModule } from '../config/modules';
import { resolveServerOptions, type ContextServerInit, type ContextServerOptions } from './server-options';

export const SERVER_OPTIONS: InjectionToken<ContextServerOptions> = Symbol.for('onemodelcontext:server-options');

/** `ContextServerModule.configure({...})`: requestState sealing, asks, lists, auth. */
export class ContextServerModule {
  static configure(options: ContextServerInit = {}): ConfigModule<ContextServerOptions> {
    return defineModule(SERVER_OPTIONS, resolveServerOptions(options));
  }
}
