/**
 * What the client is told when the framework's own bookkeeping (a shared store, a flow's hold)
 * stopped a request: never a bare "Internal error". Anything else is a bug: "Internal error", with
 * the details in the server log only.
 */
import { FlowTakenOverError } from './flow-store';
import { StoreUnavailableError } from './store-unavailable';

export function internalErrorMessage(e: unknown): string {
  if (e instanceof StoreUnavailableError) return StoreUnavailableError.clientMessage;
  if (e instanceof FlowTakenOverError) return FlowTakenOverError.clientMessage;
  return 'Internal error';
}
