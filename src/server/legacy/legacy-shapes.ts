/**
 * Down-converts 2026 listing entries and serverInfo for a legacy session: each revision receives
 * only the keys its own `schema.ts` defines (a whitelist per revision, so a field added to our
 * descriptors later is never leaked to a revision that lacks it).
 */
import type { JsonObject } from '../../protocol/jsonrpc';
import type { Implementation, ServerCapabilities } from '../../protocol/types';
import type { LegacyVersion } from '../../protocol/versions';

export type ListingKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

/** Keys each revision's schema gives a type: [2025-03-26, added in 2025-06-18, added in 2025-11-25]. */
type Growth = readonly [readonly string[], readonly string[], readonly string[]];

const LISTING: Record<ListingKind, Growth> = {
  tool: [
    ['name', 'description', 'inputSchema', 'annotations'],
    ['title', 'outputSchema', '_meta'],
    ['icons', 'execution'],
  ],
  prompt: [['name', 'description', 'arguments'], ['title', '_meta'], ['icons']],
  resource: [['name', 'uri', 'description', 'mimeType', 'annotations', 'size'], ['title', '_meta'], ['icons']],
  resourceTemplate: [['name', 'uriTemplate', 'description', 'mimeType', 'annotations'], ['title', '_meta'], ['icons']],
};
const PROMPT_ARGUMENT: Growth = [['name', 'description', 'required'], ['title'], []];
/** Resource and content annotations. */
export const ANNOTATIONS: Growth = [['audience', 'priority'], ['lastModified'], []];
const IMPLEMENTATION: Growth = [['name', 'version'], ['title'], ['icons', 'description', 'websiteUrl']];
// `extensions` (SEP-2133) on 2025-11-25: only extensions defined for the legacy wire reach it (skills).
const SERVER_CAPABILITIES: Growth = [
  ['experimental', 'logging', 'completions', 'prompts', 'resources', 'tools'],
  [],
  ['tasks', 'extensions'],
];

const STEP: Record<LegacyVersion, number> = { '2025-03-26': 0, '2025-06-18': 1, '2025-11-25': 2 };

export function keysOf(growth: Growth, v: LegacyVersion): ReadonlySet<string> {
  return new Set(growth.slice(0, STEP[v] + 1).flat());
}

/** `o` restricted to `keys`; the same object when nothing had to go (descriptors are frozen and shared). */
export function only<T extends object>(o: T, keys: ReadonlySet<string>): T {
  const own = Object.keys(o);
  if (own.every((k) => keys.has(k))) return o;
  const out: Record<string, unknown> = {};
  for (const k of own) if (keys.has(k)) out[k] = (o as Record<string, unknown>)[k];
  return out as T;
}

function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * 2025-06-18 and 2025-11-25 require `outputSchema.type` to be "object". A 2026 schema of another
 * type (an array, a string …) is sent wrapped — `{type:"object", properties:{result: S}, required:
 * ["result"]}` — and the tool's structuredContent is wrapped the same way (legacy-results.ts), so
 * an older client still gets a schema and a value that conforms to it. `$schema` and `$defs` stay
 * at the root, where `$ref`s into `#/$defs/…` still resolve.
 */
export function wrapsOutput(outputSchema: unknown): boolean {
  return isRecord(outputSchema) && outputSchema.type !== 'object';
}

export const WRAPPED_OUTPUT_KEY = 'result';

function legacyOutputSchema(schema: JsonObject): JsonObject {
  if (!wrapsOutput(schema)) return schema;
  const { $schema, $defs, definitions, ...inner } = schema;
  const out: JsonObject = {};
  if ($schema !== undefined) out.$schema = $schema;
  out.type = 'object';
  out.properties = { [WRAPPED_OUTPUT_KEY]: inner };
  out.required = [WRAPPED_OUTPUT_KEY];
  if ($defs !== undefined) out.$defs = $defs;
  if (definitions !== undefined) out.definitions = definitions;
  return out;
}

/** One listing entry as revision `v` defines it. */
export function legacyDescriptor(kind: ListingKind, d: Readonly<JsonObject>, v: LegacyVersion): Readonly<JsonObject> {
  let out = only(d, keysOf(LISTING[kind], v));
  const patch: JsonObject = {};
  if (kind === 'tool' && isRecord(out.outputSchema) && wrapsOutput(out.outputSchema))
    patch.outputSchema = legacyOutputSchema(out.outputSchema);
  if (kind === 'prompt' && Array.isArray(out.arguments)) {
    const argKeys = keysOf(PROMPT_ARGUMENT, v);
    const args = out.arguments.map((a) => (isRecord(a) ? only(a, argKeys) : a));
    if (args.some((a, i) => a !== (out.arguments as unknown[])[i])) patch.arguments = args;
  }
  if ((kind === 'resource' || kind === 'resourceTemplate') && isRecord(out.annotations)) {
    const a = only(out.annotations, keysOf(ANNOTATIONS, v));
    if (a !== out.annotations) patch.annotations = a;
  }
  if (Object.keys(patch).length) out = { ...out, ...patch };
  return out;
}

/** serverInfo: 2025-03-26 knows name and version; 2025-06-18 adds title; 2025-11-25 icons, description, websiteUrl. */
export function legacyImplementation(info: Implementation, v: LegacyVersion): Implementation {
  return only(info, keysOf(IMPLEMENTATION, v));
}

/** Server capabilities: a capability a revision does not define is not declared to it. */
export function legacyServerCapabilities(caps: ServerCapabilities, v: LegacyVersion): ServerCapabilities {
  return only(caps, keysOf(SERVER_CAPABILITIES, v));
}
