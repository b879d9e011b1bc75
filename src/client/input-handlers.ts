/**
 * One place that answers the server's asks, whichever era delivers them: 2026 `inputRequests`
 * and legacy server-to-client requests go through the same handlers.
 */
import { TASKS_EXTENSION } from '../protocol/extensions';
import type { JsonObject } from '../protocol/jsonrpc';
import { MODERN_VERSION } from '../protocol/versions';
import type { ClientCapabilities, CreateMessageParams } from '../protocol/types';
import type { ContextClientOptions, ElicitFormParams, ElicitUrlParams, InputContext } from './options';
import { MissingInputHandlerError } from './errors';

export type InputHandlers = Pick<ContextClientOptions, 'elicitation' | 'urlElicitation' | 'sampling' | 'roots'>;

/** Answers one ask; throws MissingInputHandlerError for a kind without a handler. */
export async function answerInput(
  handlers: InputHandlers,
  method: string,
  params: JsonObject,
  ctx: InputContext,
): Promise<JsonObject> {
  switch (method) {
    case 'elicitation/create': {
      if (params.mode === 'url') {
        const handler = handlers.urlElicitation;
        if (!handler) throw new MissingInputHandlerError(method, 'urlElicitation', ctx.key);
        return asObject(await handler(params as ElicitUrlParams, ctx));
      }
      const handler = handlers.elicitation;
      if (!handler) throw new MissingInputHandlerError(method, 'elicitation', ctx.key);
      return asObject(await handler(params as ElicitFormParams, ctx));
    }
    case 'sampling/createMessage': {
      const handler = handlers.sampling;
      if (!handler) throw new MissingInputHandlerError(method, 'sampling', ctx.key);
      return asObject(await handler(params as CreateMessageParams, ctx));
    }
    case 'roots/list': {
      const handler = handlers.roots;
      if (!handler) throw new MissingInputHandlerError(method, 'roots', ctx.key);
      const roots = await handler(ctx);
      return Array.isArray(roots) ? { roots } : asObject(roots);
    }
    case 'ping':
      return {};
    default:
      throw new MissingInputHandlerError(method, 'a handler for this method', ctx.key);
  }
}

/** Answers every ask of one round at once (parallel asks share a round). */
export async function answerInputRound(
  handlers: InputHandlers,
  requests: Record<string, { method: string; params?: JsonObject }>,
  ctx: Omit<InputContext, 'key'>,
): Promise<Record<string, JsonObject>> {
  const entries = await Promise.all(
    Object.entries(requests).map(
      async ([key, r]) => [key, await answerInput(handlers, r.method, r.params ?? {}, { ...ctx, key })] as const,
    ),
  );
  return Object.fromEntries(entries);
}

/**
 * The capabilities a client declares: one per handler given. `legacy` shapes follow the revision
 * negotiated at initialize (URL elicitation exists only from 2025-11-25).
 */
export function declaredCapabilities(
  options: InputHandlers & { samplingTools: boolean; tasks?: boolean },
  protocolVersion: string,
): ClientCapabilities {
  const caps: ClientCapabilities = {};
  const urlAllowed = protocolVersion >= '2025-11-25';
  if (options.elicitation || (options.urlElicitation && urlAllowed)) {
    caps.elicitation = {};
    if (options.elicitation) caps.elicitation.form = {};
    if (options.urlElicitation && urlAllowed) caps.elicitation.url = {};
  }
  if (options.sampling) caps.sampling = options.samplingTools && protocolVersion >= '2025-11-25' ? { tools: {} } : {};
  if (options.roots) caps.roots = {};
  // Extensions ride on 2026-07-28 only (the tasks extension has no legacy wire).
  if (options.tasks && protocolVersion >= MODERN_VERSION) caps.extensions = { [TASKS_EXTENSION]: {} };
  return caps;
}

function asObject(v: unknown): JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new TypeError('An input handler must return an object (ElicitResult, CreateMessageResult or roots).');
  }
  return v as JsonObject;
}
