/**
 * The services every method handler shares. Built once by the application.
 *
 * core/ is what the dispatcher is built from: this core, the options and their module, the logger,
 * the invoker, the capabilities it declares and the resource-server port auth implements.
 */
import type { Registry } from '../../registry/registry';
import type { ContextServerOptions } from './server-options';
import type { Implementation, ServerCapabilities } from '../../protocol/types';
import type { EngineDeps } from '../replay/engine-types';
import type { Invoker } from './invoker';
import type { ServerLogger } from './server-logger';
import type { UndeclaredForms } from '../replay/undeclared-forms';
import type { SharedStores } from '../fleet/shared-stores';
import type { Pipelines } from '../pipeline/pipelines';
import type { ApprovalDesk } from '../../context/ask-fallback';

export interface ServerCore {
  readonly info: Implementation;
  readonly registry: Registry;
  readonly options: Readonly<ContextServerOptions>;
  readonly invoker: Invoker;
  readonly engine: EngineDeps;
  readonly logger: ServerLogger;
  /** Notes (or refuses) forms used by `ctx.elicit` that their handler did not declare. */
  readonly forms: UndeclaredForms;
  readonly capabilities: { modern: ServerCapabilities; legacy: ServerCapabilities };
  /** Guards, interceptors and filters per definition (undefined for one that has none). */
  readonly pipelines: Pipelines;
  /** The approval desk a tool's `approvalPage` fallback puts its questions on (the app provides it). */
  readonly approvals?: ApprovalDesk;
  /** The stores a fleet shares, when a module provides them (RedisModule). */
  readonly shared?: SharedStores;
}
