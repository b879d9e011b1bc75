/**
 * The interfaces of guards, interceptors and filters, and the execution context they see.
 * NestJS's vocabulary, aware of 2026-07-28 multi-round flows.
 */
import type { Context } from '../../context/context';
import type { Principal } from '../../context/principal';
import type { Era } from '../../protocol/versions';

/**
 * `list`: deciding whether the caller may know the item exists (its lists; before answering a call
 * whose arguments are invalid); `call`: before running it.
 */
export type ExecutionPhase = 'list' | 'call';

export type HandlerKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

/** Where the current attempt stands in its flow (2026-07-28 rounds; a legacy flow is one round). */
export interface FlowInfo {
  /** 1 for the first round (a request without requestState), then 2, 3, … */
  readonly round: number;
  readonly firstRound: boolean;
  /**
   * Whether this attempt completes the flow: undefined until the handler has run (a guard and an
   * interceptor before `next()` see undefined), then true or false.
   */
  readonly completes: boolean | undefined;
}

export interface ExecutionContext {
  readonly phase: ExecutionPhase;
  /** The MCP method: `tools/call`, `prompts/get`, `resources/read`, or the list method. */
  readonly method: string;
  readonly kind: HandlerKind;
  /** The tool or prompt name, the resource URI (a template's listing: its URI template). */
  readonly target: string;
  /** The validated arguments (a template's variables, `{ uri }` for a resource); undefined in a list. */
  readonly arguments: unknown;
  /** Who is calling, as the server's authentication established (undefined: anonymous). */
  readonly principal: Principal | undefined;
  /** The client's network address where the transport knows and trusts it (HTTP); undefined otherwise. */
  readonly clientAddress?: string;
  readonly era: Era;
  readonly protocolVersion: string;
  /** The flow of a call; undefined in a list. */
  readonly flow: FlowInfo | undefined;
  /** The request's Context in a call (logging, progress, `ctx.state`); undefined in a list. */
  readonly context: Context | undefined;
  /** The handler's class and method (undefined for a function registered at run time), for reading metadata. */
  readonly handlerClass: Function | undefined;
  readonly handlerMethod: string | undefined;
}

/**
 * A guard. `false` refuses: the item is hidden from the caller's lists and a call gets the same
 * error as an unknown name. A thrown error reaches the filters, then the client (docs/errors.md).
 * It runs before every round's attempt, and for each item of a list (`ctx.phase === 'list'`); a
 * guard that only limits calls (a rate limit) returns true for lists.
 */
export interface CanActivate {
  canActivate(ctx: ExecutionContext): boolean | Promise<boolean>;
}

/**
 * When an interceptor runs on 2026-07-28: `everyRound` (around each round's attempt), `firstRound`
 * (around the first round's attempt only), `completion` (once, after the attempt that completes
 * the flow: `next()` hands back that result). On legacy revisions a flow is one round, so all three
 * run once.
 */
export type InterceptorRuns = 'everyRound' | 'firstRound' | 'completion';

/** Calls the rest of the chain (the next interceptor, then the handler) and resolves to its result. */
export type CallNext = () => Promise<unknown>;

/**
 * An interceptor. `next()` runs the handler; when the round ends asking the client for input it
 * rejects with the framework's signal (`isInputRequired(e)`): rethrow what you do not handle.
 */
export interface Interceptor {
  readonly runs?: InterceptorRuns;
  intercept(ctx: ExecutionContext, next: CallNext): unknown;
}

/**
 * An exception filter: gets what a guard, an interceptor or the handler threw. Return a value to
 * answer with it (the handler's result); throw a `ProtocolError` to answer with a JSON-RPC error, or
 * any other error for the method's default (a tool error for a tool, -32603 otherwise). The next
 * filter outwards gets what this one threw.
 */
export interface ExceptionFilter {
  catch(error: unknown, ctx: ExecutionContext): unknown;
}
