/** Runs a handler through its pipeline (guards, interceptors, filters) when it has one. */
import type { Context } from '../../context/context';
import { InputRequired } from '../../context/input-required-result';
import type { HandlerSource, ToolDefinition } from '../../registry/definitions';
import type { Pipeline, AttemptInfo } from '../pipeline/pipeline';
import { CallExecution } from '../pipeline/execution';
import type { HandlerKind } from '../pipeline/types';
import type { RequestIO } from '../request/request-io';
import type { JsonRpcRequest } from '../../protocol/jsonrpc';
import { askFreeContext } from './list-visibility';
import type { RequestScope } from '../request/request-scope';
import type { ServerCore } from '../core/server-core';

export interface Guarded {
  readonly def: { readonly source: HandlerSource; readonly owner: string };
  readonly kind: HandlerKind;
  readonly method: string;
  readonly target: string;
  readonly pipe: Pipeline | undefined;
}

function handlerOf(source: HandlerSource): { handlerClass: Function | undefined; handlerMethod: string | undefined } {
  return source.kind === 'method'
    ? { handlerClass: source.cls, handlerMethod: source.method }
    : { handlerClass: source.cls, handlerMethod: source.method };
}

/** A returned InputRequired ends the round like a thrown one: interceptors see it as a signal. */
function signalled(value: unknown): unknown {
  if (value instanceof InputRequired) throw value;
  return value;
}

/**
 * The handler's value: through the pipeline on a real attempt, straight otherwise (no pipeline, dry replay). Straight,
 * a synchronous handler's value comes back as it is (callers await it inside their try).
 */
export function invokeGuarded(
  core: ServerCore,
  g: Guarded,
  input: unknown,
  ctx: Context,
  attempt: AttemptInfo | undefined,
): unknown {
  if (!g.pipe || !attempt) return core.invoker.invoke(g.def.source, input, ctx);
  const call = new CallExecution(g.method, g.kind, g.target, input, ctx, g.def.source, attempt.round);
  return g.pipe.run(call, attempt, () => {
    const value = core.invoker.invoke(g.def.source, input, ctx);
    return value instanceof Promise ? value.then(signalled) : signalled(value);
  });
}

/**
 * Before an argument error is answered: whether the guards let this caller know the item exists,
 * asked as for a list (`phase: 'list'`; a refused caller gets the unknown-name error instead).
 */
export async function knownTo(
  g: Guarded,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
): Promise<boolean> {
  if (!g.pipe || g.pipe.guards.length === 0) return true;
  const context = askFreeContext(req, scope, io);
  try {
    return await g.pipe.visible(
      {
        phase: 'list',
        method: g.method,
        kind: g.kind,
        target: g.target,
        arguments: undefined,
        principal: io.principal,
        era: scope.era,
        protocolVersion: scope.protocolVersion,
        flow: undefined,
        get context() {
          return context();
        },
        ...handlerOf(g.def.source),
      },
      context,
    );
  } catch {
    return false;
  }
}

/** The tool and its pipeline, as `tools/call` resolved them. */
export type GuardedTool = Guarded & { readonly def: ToolDefinition };

export function guardedTool(core: ServerCore, def: ToolDefinition): GuardedTool {
  return { def, kind: 'tool', method: 'tools/call', target: def.name, pipe: core.pipelines.of(def) };
}
