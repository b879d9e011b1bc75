/** The ExecutionContext of a call, as plain classes: built once per attempt without spreads or closures. */
import type { Context } from '../../context/context';
import type { Principal } from '../../context/principal';
import type { Era } from '../../protocol/versions';
import type { HandlerSource } from '../../registry/definitions';
import type { ExecutionContext, FlowInfo, HandlerKind } from './types';

export class Flow implements FlowInfo {
  readonly firstRound: boolean;
  /** Set by the pipeline once the handler has settled. */
  completes: boolean | undefined = undefined;
  constructor(readonly round: number) {
    this.firstRound = round === 1;
  }
}

export class CallExecution implements ExecutionContext {
  readonly phase = 'call';
  readonly principal: Principal | undefined;
  readonly clientAddress: string | undefined;
  readonly era: Era;
  readonly protocolVersion: string;
  readonly handlerClass: Function | undefined;
  readonly handlerMethod: string | undefined;
  readonly flow: Flow;

  constructor(
    readonly method: string,
    readonly kind: HandlerKind,
    readonly target: string,
    readonly args: unknown,
    readonly context: Context,
    source: HandlerSource,
    round: number,
  ) {
    this.principal = context.principal;
    this.clientAddress = context.clientAddress;
    this.era = context.era;
    this.protocolVersion = context.protocolVersion;
    this.handlerClass = source.cls;
    this.handlerMethod = source.method;
    this.flow = new Flow(round);
  }

  get arguments(): unknown {
    return this.args;
  }
}
