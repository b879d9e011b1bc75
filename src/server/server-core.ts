/** The services every method handler shares. Built once by the application. */
import type { Registry } from '../registry/registry';
import type { ContextServerOptions } from '../config/server-options';
import type { Implementation, ServerCapabilities } from '../protocol/types';
import type { EngineDeps } from './ask-engine';
import type { Invoker } from './invoker';
import type { ServerLogger } from './server-logger';

export interface ServerCore {
  readonly info: Implementation;
  readonly registry: Registry;
  readonly options: Readonly<ContextServerOptions>;
  readonly invoker: Invoker;
  readonly engine: EngineDeps;
  readonly logger: ServerLogger;
  readonly capabilities: { modern: ServerCapabilities; legacy: ServerCapabilities };
}
