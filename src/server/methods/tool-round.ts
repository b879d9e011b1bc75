/**
 * One `tools/call` through the ask engine: the handler with its Context, its result checked
 * against the outputSchema, an unknown throw turned into an `isError` result. Used by a plain
 * call and by each round of a task (which runs the same handler, replayed the same way).
 */
import { InputRequiredSignal } from '../../context/input-required';
import { InputRequired } from '../../context/input-required-result';
import { FrameworkError } from '../../errors/framework-error';
import { ProtocolError } from '../../errors/protocol-error';
import type { JsonRpcRequest } from '../../protocol/jsonrpc';
import type { CallToolResult } from '../../protocol/types';
import { runWithAsks } from '../replay/ask-engine';
import { ENDED, type Ended, type Outcome } from '../replay/engine-types';
import { vetHandlerError } from '../replies/handler-codes';
import { makeContext } from './call-context';
import { invokeGuarded, type GuardedTool } from './guarded';
import { GuardRefusal } from '../pipeline/signals';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';
import { outputProblem, toolError, toolResult } from '../replies/results';
import type { ServerCore } from '../core/server-core';
import { thrownDetail } from '../core/server-logger';
import { ApprovalNeeded } from '../../context/ask-fallback';
import type { AskPort } from '../../context/ask-port';
import { ApprovalCompleted } from '../../context/fallback-port';
import type { StateBag } from '../../context/state-bag';
import type { AttemptInfo } from '../pipeline/pipeline';
import { fallbackPolicy, settleWithFallback, withFallback } from './ask-fallbacks';

/** A handler may return its InputRequired instead of throwing it: the engine handles both alike. */
export function endIfInputRequired(value: unknown): unknown {
  if (value instanceof InputRequired) throw value;
  return value;
}

export function runToolRound(
  core: ServerCore,
  g: GuardedTool,
  req: JsonRpcRequest,
  args: unknown,
  scope: RequestScope,
  io: RequestIO,
): Outcome<CallToolResult> | Promise<Outcome<CallToolResult>> {
  const def = g.def;
  const policy = fallbackPolicy(core, def);
  return runWithAsks(core.engine, {
    method: 'tools/call',
    target: def.name,
    params: req.params ?? {},
    scope,
    io,
    run: (asks, state, runIo, attempt) => {
      // A declared fallback wraps real attempts only (the linter's dry replay must not open approval flows).
      if (!policy || !attempt) return attemptTool(core, g, req, args, scope, runIo, asks, state, attempt);
      const port = withFallback(core, def, policy, asks, req, scope, runIo);
      return settleWithFallback(port, def, attemptTool(core, g, req, args, scope, runIo, port, state, attempt));
    },
  });
}

function attemptTool(
  core: ServerCore,
  g: GuardedTool,
  req: JsonRpcRequest,
  args: unknown,
  scope: RequestScope,
  runIo: RequestIO,
  asks: AskPort,
  state: StateBag,
  attempt: AttemptInfo | undefined,
): CallToolResult | Ended | Promise<CallToolResult | Ended> {
  const ctx = makeContext(req, scope, runIo, asks, state, core.forms.gate(g.def), g.def);
  let value: unknown;
  try {
    value = invokeGuarded(core, g, args, ctx, attempt);
  } catch (e) {
    return toolFailure(core, g, scope, e);
  }
  // A synchronous handler's value is shaped here and now: no async frame for it.
  if (value instanceof Promise) {
    return value.then(
      (v: unknown) => shapedResult(core, g, scope, v),
      (e: unknown) => toolFailure(core, g, scope, e),
    );
  }
  return shapedResult(core, g, scope, value);
}

/** The handler's value as the tool's result, checked against its outputSchema. */
function shapedResult(core: ServerCore, g: GuardedTool, scope: RequestScope, value: unknown): CallToolResult | Ended {
  const def = g.def;
  try {
    const result = toolResult(def, endIfInputRequired(value));
    const problem = outputProblem(def, result);
    if (problem === undefined) return result;
    core.logger.error(`tool ${def.owner} returned output that does not match its outputSchema`, {
      reason: problem,
    });
    return toolError(`The tool's output does not match its outputSchema: ${problem}`);
  } catch (e) {
    return toolFailure(core, g, scope, e);
  }
}

/**
 * A throw of the handler (or its pipeline): signals and protocol errors go on, the rest is the tool's failure.
 * The ask's signal goes on as the value ENDED: a round 1 ends without one more throw per async layer.
 */
function toolFailure(core: ServerCore, g: GuardedTool, scope: RequestScope, e: unknown): CallToolResult | Ended {
  const def = g.def;
  if (e === InputRequiredSignal.instance) return ENDED;
  if (e instanceof InputRequiredSignal || e instanceof InputRequired) throw e;
  // The fallback's signals: the call answers with a link, or with a finished flow's result.
  if (e instanceof ApprovalNeeded || e instanceof ApprovalCompleted) throw e;
  if (e === GuardRefusal.instance) throw ProtocolError.invalidParams(`Unknown tool: ${def.name}`);
  if (e instanceof ProtocolError) throw vetHandlerError(e, { ...scope, owner: def.owner }, core.logger);
  // Unknown throws are the tool's failure, readable by the model; the stack only in the server log.
  core.logger.error(`tool ${def.owner} failed`, thrownDetail(e));
  return toolError(e instanceof FrameworkError ? e.detail : e instanceof Error ? e.message : String(e));
}
