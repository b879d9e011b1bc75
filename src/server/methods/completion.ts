/** completion/complete: values for a prompt argument or a resource-template variable (never asks). */
import { ProtocolError } from '../../errors/protocol-error';
import type { CompletionReference } from '../../protocol/completion';
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc';
import { vetHandlerError } from '../replies/handler-codes';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';
import { knownTo } from './guarded';
import type { ServerCore } from '../core/server-core';
import { thrownDetail } from '../core/server-logger';

const MAX_VALUES = 100;

function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function complete(
  core: ServerCore,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
): Promise<JsonObject> {
  const params = req.params;
  const ref = params?.ref;
  const argument = params?.argument;
  if (
    !isRecord(ref) ||
    !isRecord(argument) ||
    typeof argument.name !== 'string' ||
    typeof argument.value !== 'string'
  ) {
    throw ProtocolError.invalidParams('completion/complete needs ref and argument {name, value}');
  }
  let key: CompletionReference;
  const none = { completion: { values: [], hasMore: false } };
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    const prompt = core.registry.prompt(ref.name);
    const unknown = () => ProtocolError.invalidParams(`Unknown prompt: ${ref.name}`);
    if (!prompt) throw unknown();
    // A prompt its guards hide from this caller is unknown here too.
    const g = { def: prompt, kind: 'prompt', method: 'completion/complete', target: prompt.name } as const;
    if (!(await knownTo({ ...g, pipe: core.pipelines.of(prompt) }, req, scope, io))) throw unknown();
    key = { type: 'ref/prompt', name: ref.name };
  } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    const uri = ref.uri;
    const template = core.registry.listResourceTemplates().find((t) => t.uriTemplate === uri);
    const target = template ?? core.registry.resource(uri);
    if (target) {
      const g = {
        def: target,
        kind: template ? 'resourceTemplate' : 'resource',
        method: 'completion/complete',
        target: uri,
      } as const;
      // Hidden from this caller: as for a reference nothing completes.
      if (!(await knownTo({ ...g, pipe: core.pipelines.of(target) }, req, scope, io))) return none;
    }
    key = { type: 'ref/resource', uri };
  } else throw ProtocolError.invalidParams('completion/complete: unsupported ref');

  const def = core.registry.completion(key, argument.name);
  if (!def) return none;
  const context = isRecord(params?.context) && isRecord(params.context.arguments) ? params.context.arguments : {};
  let produced: unknown;
  try {
    produced = await core.invoker.invokeWith(def.source, [argument.value, { arguments: context }]);
  } catch (e) {
    if (e instanceof ProtocolError) throw vetHandlerError(e, { ...scope, owner: def.owner }, core.logger);
    core.logger.error(`completion ${def.owner} failed`, thrownDetail(e));
    throw ProtocolError.internal();
  }
  const all = Array.isArray(produced)
    ? produced
    : isRecord(produced) && Array.isArray(produced.values)
      ? produced.values
      : [];
  const values = all.filter((v): v is string => typeof v === 'string');
  const total = isRecord(produced) && typeof produced.total === 'number' ? produced.total : values.length;
  return {
    completion: {
      values: values.slice(0, MAX_VALUES),
      total,
      hasMore: values.length > MAX_VALUES || (isRecord(produced) && produced.hasMore === true),
    },
  };
}
