/**
 * `RequestStateModule` (DESIGN D9): the requestState options as a module of their own, registered
 * under REQUEST_STATE_OPTIONS. `ContextServerModule` composes it from the server options; list it
 * alone to configure sealing without the rest of the server options.
 */
import type { InjectionToken } from 'tsyringe';
import { defineModule, type ConfigModule } from '../config/modules';
import { requestStatePartOf, validateRequestStateOptions, type RequestStateOptions } from './request-state-options';

export const REQUEST_STATE_OPTIONS: InjectionToken<RequestStateOptions> = Symbol.for(
  'onemodelcontext:request-state-options',
);

export class RequestStateModule {
  /** `RequestStateModule.configure({ requestStateKey, ... })`: validated, frozen; unknown keys refused. */
  static configure(options: Partial<RequestStateOptions> = {}): ConfigModule<RequestStateOptions> {
    return defineModule(REQUEST_STATE_OPTIONS, validateRequestStateOptions(options));
  }

  /**
   * The requestState part of a larger options object (the server's), other keys left out; validated
   * unless the whole object already was with the same rules (ContextServerModule's: validated once).
   */
  static from(options: Partial<RequestStateOptions>): ConfigModule<RequestStateOptions> {
    return defineModule(REQUEST_STATE_OPTIONS, requestStatePartOf(options));
  }
}
