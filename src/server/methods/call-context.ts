/** Builds the Context for one request from its scope, transport IO and ask port. */
import type { AskPort } from '../../context/ask-port';
import { Context, type ContextInit } from '../../context/context';
import type { StateBag } from '../../context/state-bag';
import type { DeclaredAsks } from '../../registry/declared-asks';
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';

export function makeContext(
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
  asks: AskPort,
  state: StateBag,
  checkForm?: (form: Function) => void,
  def?: { readonly owner: string; readonly asks?: DeclaredAsks },
): Context {
  const init = new CallInit(req, scope, io, asks, state, checkForm);
  if (def?.asks) init.declaredAsks = { owner: def.owner, kinds: def.asks.kinds };
  return new Context(init);
}

/**
 * A class rather than an object literal with a getter and closures: built on every call, it is one
 * object, and the signal is read through, since a transport may create it only when a handler looks.
 */
class CallInit implements ContextInit {
  readonly era: ContextInit['era'];
  readonly protocolVersion: string;
  readonly requestId: ContextInit['requestId'];
  readonly method: string;
  readonly clientCapabilities: ContextInit['clientCapabilities'];
  readonly clientInfo: ContextInit['clientInfo'];
  readonly principal: ContextInit['principal'];
  readonly clientAddress: string | undefined;
  readonly progressToken: ContextInit['progressToken'];
  readonly logLevel: ContextInit['logLevel'];
  readonly urlElicitationIds: boolean;
  readonly notifySession?: (method: string, params: JsonObject) => void;
  declaredAsks?: ContextInit['declaredAsks'];

  constructor(
    req: JsonRpcRequest,
    scope: RequestScope,
    private readonly io: RequestIO,
    readonly asks: AskPort,
    readonly state: StateBag,
    readonly checkForm: ((form: Function) => void) | undefined,
  ) {
    this.era = scope.era;
    this.protocolVersion = scope.protocolVersion;
    this.requestId = req.id;
    this.method = req.method;
    this.clientCapabilities = scope.clientCapabilities;
    this.clientInfo = scope.clientInfo;
    this.principal = io.principal;
    this.clientAddress = io.clientAddress;
    this.progressToken = scope.progressToken;
    this.logLevel = scope.logLevel;
    this.urlElicitationIds = scope.era === 'legacy' && scope.protocolVersion === '2025-11-25';
    if (io.notifySession) {
      this.notifySession = (method, params) => io.notifySession?.({ jsonrpc: '2.0', method, params });
    }
  }

  get signal(): AbortSignal {
    return this.io.signal;
  }

  notify(method: string, params: JsonObject): void {
    this.io.notify({ jsonrpc: '2.0', method, params });
  }
}
