/** tools/call, prompts/get, resources/read: the methods that run user code and may ask. */
import { FrameworkError } from '../../errors/framework-error';
import { ProtocolError } from '../../errors/protocol-error';
import { ErrorCode } from '../../protocol/error-codes';
import { InputRequiredSignal } from '../../context/input-required';
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc';
import type { LegacyVersion } from '../../protocol/versions';
import { runWithAsks, type Outcome } from '../ask-engine';
import { legacyToolResult } from '../legacy-shapes';
import type { RequestIO } from '../request-io';
import type { RequestScope } from '../request-scope';
import { promptResult, resourceResult, toolError, toolResult } from '../results';
import type { ServerCore } from '../server-core';
import { makeContext } from './call-context';
import type { Context } from '../../context/context';
import type { HandlerSource } from '../../registry/definitions';

function name(params: JsonObject | undefined, method: string): string {
  const n = params?.name;
  if (typeof n !== 'string') throw ProtocolError.invalidParams(`${method}: params.name must be a string`);
  return n;
}

/**
 * Runs a prompt or resource handler: protocol errors and the input signal pass through, anything
 * else becomes -32603 (a framework error keeps its message, which is written for developers).
 */
async function invokeStrict(
  core: ServerCore,
  def: { source: HandlerSource; owner: string },
  input: unknown,
  ctx: Context,
  shape: (value: unknown) => JsonObject,
): Promise<JsonObject> {
  try {
    return shape(await core.invoker.invoke(def.source, input, ctx));
  } catch (e) {
    if (e instanceof ProtocolError || e instanceof InputRequiredSignal) throw e;
    if (e instanceof FrameworkError && e.code === 'OMC_ASK_UNAVAILABLE') {
      // The client cannot answer what the handler asked (capability or revision): its request's problem.
      core.logger.warn(`handler ${def.owner} could not ask`, { reason: e.detail });
      throw ProtocolError.invalidParams(e.detail);
    }
    core.logger.error(`handler ${def.owner} failed`, { error: e instanceof Error ? e.message : String(e) });
    throw ProtocolError.internal(e instanceof FrameworkError ? e.detail : 'Internal error');
  }
}

export async function callTool(core: ServerCore, req: JsonRpcRequest, scope: RequestScope, io: RequestIO): Promise<Outcome<JsonObject>> {
  const params = req.params ?? {};
  const toolName = name(params, 'tools/call');
  const def = core.registry.tool(toolName);
  if (!def) throw ProtocolError.invalidParams(`Unknown tool: ${toolName}`);
  const args = params.arguments;
  const checked = def.validate(args);
  if (!checked.ok) {
    return { kind: 'complete', value: toolError(`Invalid arguments for tool ${toolName}: ${checked.errors.join('; ')}`) as unknown as JsonObject };
  }
  const outcome = await runWithAsks(core.engine, {
    method: 'tools/call',
    target: toolName,
    params,
    scope,
    io,
    run: async (asks, state) => {
      const ctx = makeContext(req, scope, io, asks, state, core.forms.gate(def));
      try {
        return toolResult(def, await core.invoker.invoke(def.source, checked.value, ctx));
      } catch (e) {
        if (e instanceof ProtocolError || e instanceof InputRequiredSignal) throw e;
        // Unknown throws are the tool's failure, readable by the model; never a stack on the wire.
        return toolError(e instanceof FrameworkError ? e.detail : e instanceof Error ? e.message : String(e));
      }
    },
  });
  if (outcome.kind === 'complete' && scope.era === 'legacy') {
    return { kind: 'complete', value: legacyToolResult(outcome.value, scope.protocolVersion as LegacyVersion) as unknown as JsonObject };
  }
  return outcome as Outcome<JsonObject>;
}

export async function getPrompt(core: ServerCore, req: JsonRpcRequest, scope: RequestScope, io: RequestIO): Promise<Outcome<JsonObject>> {
  const params = req.params ?? {};
  const promptName = name(params, 'prompts/get');
  const def = core.registry.prompt(promptName);
  if (!def) throw ProtocolError.invalidParams(`Unknown prompt: ${promptName}`);
  const checked = def.validate(params.arguments);
  if (!checked.ok) throw ProtocolError.invalidParams(`Invalid arguments for prompt ${promptName}: ${checked.errors.join('; ')}`);
  return runWithAsks(core.engine, {
    method: 'prompts/get',
    target: promptName,
    params,
    scope,
    io,
    run: (asks, state) =>
      invokeStrict(core, def, checked.value, makeContext(req, scope, io, asks, state, core.forms.gate(def)), (v) => promptResult(v) as unknown as JsonObject),
  });
}

export async function readResource(core: ServerCore, req: JsonRpcRequest, scope: RequestScope, io: RequestIO): Promise<Outcome<JsonObject>> {
  const params = req.params ?? {};
  const uri = params.uri;
  if (typeof uri !== 'string') throw ProtocolError.invalidParams('resources/read: params.uri must be a string');
  const fixed = core.registry.resource(uri);
  const matched = fixed ? undefined : core.registry.matchTemplate(uri);
  const def = fixed ?? matched?.def;
  if (!def) {
    throw scope.era === 'modern'
      ? ProtocolError.invalidParams(`Resource not found: ${uri}`, { uri })
      : new ProtocolError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
  }
  const input = matched ? matched.variables : { uri };
  return runWithAsks(core.engine, {
    method: 'resources/read',
    target: uri,
    params,
    scope,
    io,
    run: (asks, state) =>
      invokeStrict(core, def, input, makeContext(req, scope, io, asks, state, core.forms.gate(def)), (v) => resourceResult(def, uri, v) as unknown as JsonObject),
  });
}
