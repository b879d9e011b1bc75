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

function name(params: JsonObject | undefined, method: string): string {
  const n = params?.name;
  if (typeof n !== 'string') throw ProtocolError.invalidParams(`${method}: params.name must be a string`);
  return n;
}

/** What a failed handler becomes outside tools/call: protocol errors pass, anything else is -32603. */
function asProtocolError(e: unknown, core: ServerCore, owner: string): unknown {
  if (e instanceof ProtocolError || e instanceof InputRequiredSignal) return e;
  core.logger.error(`handler ${owner} failed`, { error: e instanceof Error ? e.message : String(e) });
  return ProtocolError.internal(e instanceof FrameworkError ? e.message : 'Internal error');
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
      const ctx = makeContext(req, scope, io, asks, state);
      try {
        return toolResult(def, await core.invoker.invoke(def.source, checked.value, ctx));
      } catch (e) {
        if (e instanceof ProtocolError || e instanceof InputRequiredSignal) throw e;
        // Unknown throws are the tool's failure, readable by the model; never a stack on the wire.
        return toolError(e instanceof Error ? e.message : String(e));
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
    run: async (asks, state) => {
      const ctx = makeContext(req, scope, io, asks, state);
      try {
        return promptResult(await core.invoker.invoke(def.source, checked.value, ctx)) as unknown as JsonObject;
      } catch (e) {
        throw asProtocolError(e, core, def.owner);
      }
    },
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
    run: async (asks, state) => {
      const ctx = makeContext(req, scope, io, asks, state);
      try {
        return resourceResult(def, uri, await core.invoker.invoke(def.source, input, ctx)) as unknown as JsonObject;
      } catch (e) {
        throw asProtocolError(e, core, def.owner);
      }
    },
  });
}
