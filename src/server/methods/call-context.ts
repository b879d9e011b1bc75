/** Builds the Context for one request from its scope, transport IO and ask port. */
import type { AskPort } from '../../context/ask-port';
import { Context } from '../../context/context';
import type { StateBag } from '../../context/state-bag';
import type { JsonRpcRequest } from '../../protocol/jsonrpc';
import type { RequestIO } from '../request-io';
import type { RequestScope } from '../request-scope';

export function makeContext(
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
  asks: AskPort,
  state: StateBag,
  checkForm?: (form: Function) => void,
): Context {
  return new Context({
    era: scope.era,
    protocolVersion: scope.protocolVersion,
    requestId: req.id,
    method: req.method,
    clientCapabilities: scope.clientCapabilities,
    clientInfo: scope.clientInfo,
    // Read through: a transport may create the signal lazily, only when a handler looks at it.
    get signal() {
      return io.signal;
    },
    principal: io.principal,
    progressToken: scope.progressToken,
    logLevel: scope.logLevel,
    notify: (method, params) => io.notify({ jsonrpc: '2.0', method, params }),
    notifySession: io.notifySession
      ? (method, params) => io.notifySession?.({ jsonrpc: '2.0', method, params })
      : undefined,
    asks,
    state,
    urlElicitationIds: scope.era === 'legacy' && scope.protocolVersion === '2025-11-25',
    checkForm,
  });
}
