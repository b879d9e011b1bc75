/**
 * What a legacy ask puts on the wire, per negotiated revision: each revision receives only what its
 * own schema.ts defines. 2025-06-18 elicitation has no `mode` and flat primitives only (titled
 * single-select becomes `enum` + `enumNames`; defaults only on booleans; no multi-select);
 * sampling `tools`/`toolChoice`, content arrays and message `_meta` are 2025-11-25 only;
 * `includeContext` goes only to a client that declared `sampling.context`.
 */
import { FrameworkError } from '../errors/framework-error';
import type { JsonObject } from '../protocol/jsonrpc';
import type { ClientCapabilities } from '../protocol/types';
import { legacyFeatures, type LegacyVersion } from '../protocol/versions';
import type { Ask } from './asks';

function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unavailable(v: LegacyVersion, what: string): FrameworkError {
  return new FrameworkError(
    'OMC_ASK_UNAVAILABLE',
    `Protocol revision ${v} cannot carry ${what}; the client must negotiate 2025-11-25 or newer.`,
  );
}

function pick(o: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

const COMMON = ['type', 'title', 'description'] as const;
/** 2025-06-18 PrimitiveSchemaDefinition, member by member. */
const FLAT_KEYS: Record<string, readonly string[]> = {
  string: [...COMMON, 'minLength', 'maxLength', 'format'],
  number: [...COMMON, 'minimum', 'maximum'],
  integer: [...COMMON, 'minimum', 'maximum'],
  boolean: [...COMMON, 'default'],
};

/** One form field as 2025-06-18 defines it; a field it cannot express is refused by name. */
function flatField(name: string, field: unknown, v: LegacyVersion): JsonObject {
  if (!isRecord(field)) throw unavailable(v, `the form field "${name}" (not a schema object)`);
  if (field.type === 'array')
    throw unavailable(v, `the multi-select form field "${name}" (multi-select arrays are 2025-11-25)`);
  if (field.type === 'string' && Array.isArray(field.oneOf)) {
    const options = field.oneOf.filter(isRecord);
    return {
      ...pick(field, COMMON),
      enum: options.map((o) => o.const),
      enumNames: options.map((o) => o.title ?? o.const),
    };
  }
  if (field.type === 'string' && Array.isArray(field.enum)) return pick(field, [...COMMON, 'enum', 'enumNames']);
  const keys = typeof field.type === 'string' ? FLAT_KEYS[field.type] : undefined;
  if (!keys) throw unavailable(v, `the form field "${name}" of type ${JSON.stringify(field.type)}`);
  return pick(field, keys);
}

function formParams(params: JsonObject, v: LegacyVersion): JsonObject {
  if (v === '2025-11-25') return params;
  const schema = isRecord(params.requestedSchema) ? params.requestedSchema : {};
  const properties: JsonObject = {};
  for (const [name, field] of Object.entries(isRecord(schema.properties) ? schema.properties : {}))
    properties[name] = flatField(name, field, v);
  const requestedSchema: JsonObject = { type: 'object', properties };
  if (Array.isArray(schema.required)) requestedSchema.required = schema.required;
  return { message: params.message, requestedSchema };
}

function samplingParams(params: JsonObject, v: LegacyVersion, caps: ClientCapabilities): JsonObject {
  const out: JsonObject = { ...params };
  // Soft-deprecated: the client may ignore it anyway, and only one that declared sampling.context supports it.
  if (out.includeContext !== undefined && !caps.sampling?.context) delete out.includeContext;
  if (legacyFeatures(v).samplingTools) return out;
  if (out.tools !== undefined || out.toolChoice !== undefined)
    throw unavailable(v, 'sampling with tools (tools/toolChoice)');
  if (Array.isArray(out.messages)) {
    out.messages = out.messages.map((m, i) => {
      if (!isRecord(m)) return m;
      const { _meta: _dropped, ...message } = m;
      let content = message.content;
      if (Array.isArray(content)) {
        if (content.length !== 1)
          throw unavailable(
            v,
            `sampling message ${i} with ${content.length} content blocks (one block per message before 2025-11-25)`,
          );
        content = content[0];
      }
      const type = isRecord(content) ? content.type : undefined;
      if (type !== 'text' && type !== 'image' && type !== 'audio')
        throw unavailable(v, `sampling message ${i} with ${String(type)} content`);
      return { ...message, content };
    });
  }
  return out;
}

/** The params this ask sends on revision `v` to a client with `caps` (throws when they cannot be expressed). */
export function legacyAskParams(ask: Ask<unknown>, v: LegacyVersion, caps: ClientCapabilities): JsonObject {
  const params = ask.request.params;
  if (ask.kind === 'elicitation') return formParams(params, v);
  if (ask.kind === 'sampling') return samplingParams(params, v, caps);
  return params;
}
