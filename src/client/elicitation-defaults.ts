/** SEP-1034: fill the fields a user left empty with the defaults the form declares. */
import type { JsonObject } from '../protocol/jsonrpc';

/** The content of an elicitation answer: a flat object of primitive values (the restricted form subset). */
export type ElicitationContent = Record<string, string | number | boolean | string[]>;

export function applyElicitationDefaults(
  requestedSchema: JsonObject,
  content: ElicitationContent = {},
): ElicitationContent {
  const out: ElicitationContent = { ...content };
  const properties = requestedSchema.properties;
  if (typeof properties !== 'object' || properties === null) return out;
  for (const [name, schema] of Object.entries(properties as Record<string, JsonObject>)) {
    if (out[name] !== undefined || typeof schema !== 'object' || schema === null) continue;
    const d = schema.default;
    if (
      typeof d === 'string' ||
      typeof d === 'number' ||
      typeof d === 'boolean' ||
      (Array.isArray(d) && d.every((x) => typeof x === 'string'))
    ) {
      out[name] = d as string | number | boolean | string[];
    }
  }
  return out;
}
