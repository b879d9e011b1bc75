/** tools/call, prompts/get, resources/read: the methods that run user code and may ask. */
import { FrameworkError } from '../../errors/framework-error';
import { internalErrorMessage } from '../../state/bookkeeping-failure';
import { ProtocolError } from '../../errors/protocol-error';
import { InvalidParamsError, NotFoundError } from '../../errors/request-errors';
import { ErrorCode } from '../../protocol/error-codes';
import { InputRequiredSignal } from '../../context/input-required';
import { InputRequired } from '../../context/input-required-result';

import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc';
import type { LegacyVersion } from '../../protocol/versions';
import { runWithAsks } from '../replay/ask-engine';
import type { Outcome } from '../replay/engine-types';
import { legacyPromptResult, legacyReadResult, legacyToolResult } from '../legacy/legacy-results';
import { wrapsOutput } from '../legacy/legacy-shapes';
import type { RequestIO } from '../request/request-io';
import { resourceUri } from '../request/resource-uri';
import type { RequestScope } from '../request/request-scope';
import { promptResult, resourceResult, toolError } from '../replies/results';
import { endIfInputRequired, runToolRound } from './tool-round';
import type { CallToolResult } from '../../protocol/types';
import type { ToolDefinition } from '../../registry/definitions';
import type { TaskOutcome, TaskService } from '../tasks/task-service';
import { declaresExtension, TASKS_EXTENSION } from '../../protocol/extensions';
import type { ServerCore } from '../core/server-core';
import { thrownDetail } from '../core/server-logger';
import { vetHandlerError } from '../replies/handler-codes';
import { makeContext } from './call-context';
import { withDeny } from './ask-fallbacks';
import type { Context } from '../../context/context';
import { GuardRefusal } from '../pipeline/signals';
import type { AttemptInfo } from '../pipeline/pipeline';
import { guardedTool, invokeGuarded, knownTo, type Guarded, type GuardedTool } from './guarded';

function name(params: JsonObject | undefined, method: string): string {
  const n = params?.name;
  if (typeof n !== 'string') throw ProtocolError.invalidParams(`${method}: params.name must be a string`);
  return n;
}

/** `arguments` is an object when present (both methods' schemas): anything else is the request's fault. */
function argumentsOf(params: JsonObject, method: string): unknown {
  const args = params.arguments;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw ProtocolError.invalidParams(`${method}: params.arguments must be an object`);
  }
  return args;
}

/**
 * Runs a prompt or resource handler: protocol errors and the input signal pass through,
 * NotFoundError / InvalidParamsError become the revision's code (`refuse`), anything else is
 * logged with its stack and becomes -32603 (a framework error keeps its message, which is
 * written for developers; a stack never crosses the wire).
 */
async function invokeStrict<T extends JsonObject>(
  core: ServerCore,
  g: Guarded,
  input: unknown,
  ctx: Context,
  attempt: AttemptInfo | undefined,
  shape: (value: unknown) => T,
  refuse: (e: NotFoundError | InvalidParamsError) => ProtocolError,
  hidden: () => ProtocolError,
  scope: RequestScope,
): Promise<T> {
  const def = g.def;
  try {
    return shape(endIfInputRequired(await invokeGuarded(core, g, input, ctx, attempt)));
  } catch (e) {
    if (e instanceof InputRequiredSignal || e instanceof InputRequired) throw e;
    if (e === GuardRefusal.instance) throw hidden();
    if (e instanceof ProtocolError) throw vetHandlerError(e, { ...scope, owner: def.owner }, core.logger);
    if (e instanceof NotFoundError || e instanceof InvalidParamsError) throw refuse(e);
    if (e instanceof FrameworkError && (e.code === 'OMC_ASK_UNAVAILABLE' || e.code === 'OMC_ASK_INVALID_ANSWER')) {
      // The client cannot (or did not) answer what the handler asked: its request's problem.
      core.logger.warn(`handler ${def.owner} could not ask`, { reason: e.detail });
      throw ProtocolError.invalidParams(e.detail);
    }
    core.logger.error(`handler ${def.owner} failed`, thrownDetail(e));
    throw ProtocolError.internal(
      e instanceof FrameworkError ? e.detail : internalErrorMessage(e),
    );
  }
}

/** Resource not found, as each revision spells it (digest §2: 2026-07-28 MUST NOT send -32002). */
function resourceNotFound(
  scope: RequestScope,
  uri: string,
  message = `Resource not found: ${uri}`,
  data?: Record<string, unknown>,
): ProtocolError {
  const withUri = { ...data, uri };
  return scope.era === 'modern'
    ? ProtocolError.invalidParams(message, withUri)
    : new ProtocolError(ErrorCode.ResourceNotFound, message, withUri);
}

/** Not async: a synchronous tool's outcome comes back as it is (no promise on the common path). */
export function callTool(
  core: ServerCore,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
  tasks: TaskService,
): Outcome<JsonObject> | Promise<Outcome<JsonObject> | TaskOutcome> {
  const params = req.params ?? {};
  const toolName = name(params, 'tools/call');
  const def = core.registry.tool(toolName);
  if (!def) throw unknownTool(toolName);
  const g = guardedTool(core, def);
  const args = argumentsOf(params, 'tools/call');
  const checked = def.validate(args);
  if (!checked.ok) return invalidArguments(g, req, scope, io, checked.errors);
  if (def.task !== undefined && scope.era === 'modern') {
    const withTasks = declaresExtension(scope.clientCapabilities, TASKS_EXTENSION);
    if (withTasks) return taskCall(g, req, checked.value, scope, io, tasks);
    if (def.task === 'required') return tasksRequired(g, req, scope, io);
  }
  const outcome = runToolRound(core, g, req, checked.value, scope, io);
  // A 2026 outcome goes as it is: no promise hop to reshape it (each round of a flow comes this way).
  if (scope.era === 'modern') return outcome as Outcome<JsonObject> | Promise<Outcome<JsonObject>>;
  if (outcome instanceof Promise) return outcome.then((o) => forRevision(o, scope, def.outputSchema));
  return forRevision(outcome, scope, def.outputSchema);
}

function unknownTool(toolName: string): ProtocolError {
  return ProtocolError.invalidParams(`Unknown tool: ${toolName}`);
}

async function invalidArguments(
  g: GuardedTool,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
  errors: readonly string[],
): Promise<Outcome<JsonObject>> {
  if (!(await knownTo(g, req, scope, io))) throw unknownTool(g.target);
  return { kind: 'complete', value: toolError(`Invalid arguments for tool ${g.target}: ${errors.join('; ')}`) };
}

/**
 * A task tool's call: the guards first, then the task cap. Reserving the slot first would answer a
 * caller the guards refuse with the cap's error at the cap, telling it the hidden tool exists.
 */
async function taskCall(
  g: GuardedTool,
  req: JsonRpcRequest,
  args: unknown,
  scope: RequestScope,
  io: RequestIO,
  tasks: TaskService,
): Promise<Outcome<JsonObject> | TaskOutcome> {
  if (!(await knownTo(g, req, scope, io))) throw unknownTool(g.target);
  return tasks.call(g, req, args, scope, io);
}

/** A tool that needs the tasks extension, called without it (a tool the guards hide stays unknown). */
async function tasksRequired(g: GuardedTool, req: JsonRpcRequest, scope: RequestScope, io: RequestIO): Promise<never> {
  if (!(await knownTo(g, req, scope, io))) throw unknownTool(g.target);
  throw ProtocolError.missingCapability({ extensions: { [TASKS_EXTENSION]: {} } }, `${TASKS_EXTENSION} extension`);
}

/** A complete result on a legacy revision takes that revision's shape. */
function forRevision(
  outcome: Outcome<CallToolResult>,
  scope: RequestScope,
  outputSchema: ToolDefinition['outputSchema'],
): Outcome<JsonObject> {
  if (outcome.kind === 'complete' && scope.era === 'legacy') {
    return {
      kind: 'complete',
      value: legacyToolResult(outcome.value, scope.protocolVersion as LegacyVersion, wrapsOutput(outputSchema)),
    };
  }
  return outcome as Outcome<JsonObject>;
}

export async function getPrompt(
  core: ServerCore,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
): Promise<Outcome<JsonObject>> {
  const params = req.params ?? {};
  const promptName = name(params, 'prompts/get');
  const def = core.registry.prompt(promptName);
  const unknown = () => ProtocolError.invalidParams(`Unknown prompt: ${promptName}`);
  if (!def) throw unknown();
  const g: Guarded = { def, kind: 'prompt', method: 'prompts/get', target: promptName, pipe: core.pipelines.of(def) };
  const args = argumentsOf(params, 'prompts/get');
  const checked = def.validate(args);
  if (!checked.ok) {
    if (!(await knownTo(g, req, scope, io))) throw unknown();
    throw ProtocolError.invalidParams(`Invalid arguments for prompt ${promptName}: ${checked.errors.join('; ')}`);
  }
  const outcome = await runWithAsks(core.engine, {
    method: 'prompts/get',
    target: promptName,
    params,
    scope,
    io,
    run: (asks, state, runIo, attempt) =>
      invokeStrict(
        core,
        g,
        checked.value,
        makeContext(req, scope, runIo, withDeny(core, def, asks, scope, attempt), state, core.forms.gate(def), def),
        attempt,
        (v) => promptResult(v),
        (e) => ProtocolError.invalidParams(e.message, e.data),
        unknown,
        scope,
      ),
  });
  if (outcome.kind === 'complete' && scope.era === 'legacy') {
    const shaped = legacyPromptResult(outcome.value, scope.protocolVersion as LegacyVersion);
    return { kind: 'complete', value: shaped };
  }
  return outcome;
}

export async function readResource(
  core: ServerCore,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
): Promise<Outcome<JsonObject>> {
  const params = req.params ?? {};
  const uri = resourceUri(params, 'resources/read', core.options.maxUriLength);
  const fixed = core.registry.resource(uri);
  const matched = fixed ? undefined : core.registry.matchTemplate(uri);
  const def = fixed ?? matched?.def;
  if (!def) {
    throw resourceNotFound(scope, uri);
  }
  const input = matched ? matched.variables : { uri };
  const g: Guarded = {
    def,
    kind: fixed ? 'resource' : 'resourceTemplate',
    method: 'resources/read',
    target: uri,
    pipe: core.pipelines.of(def),
  };
  const outcome = await runWithAsks(core.engine, {
    method: 'resources/read',
    target: uri,
    params,
    scope,
    io,
    run: (asks, state, runIo, attempt) =>
      invokeStrict(
        core,
        g,
        input,
        makeContext(req, scope, runIo, withDeny(core, def, asks, scope, attempt), state, core.forms.gate(def), def),
        attempt,
        (v) => resourceResult(def, uri, v),
        (e) =>
          e instanceof NotFoundError
            ? resourceNotFound(scope, uri, e.message, e.data)
            : ProtocolError.invalidParams(e.message, e.data),
        () => resourceNotFound(scope, uri),
        scope,
      ),
  });
  if (outcome.kind === 'complete' && scope.era === 'legacy') {
    const shaped = legacyReadResult(outcome.value, scope.protocolVersion as LegacyVersion);
    return { kind: 'complete', value: shaped };
  }
  return outcome;
}
