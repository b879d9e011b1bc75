/**
 * class-validator's @ValidateNested skips an absent value, so a required nested DTO would pass
 * unnoticed. The schema says what is required: report absent required objects from it.
 */
import type { JsonSchemaObject } from './json-schema-types';

type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: string[]; items?: Schema; $ref?: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function missingRequiredObjects(schema: JsonSchemaObject, input: unknown, path = ''): string[] {
  const s = schema as Schema;
  if (Array.isArray(input) && s.items) {
    return input.flatMap((item, i) => missingRequiredObjects(s.items as JsonSchemaObject, item, `${path}[${i}]`));
  }
  if (!isRecord(input) || !s.properties) return [];
  const problems: string[] = [];
  const required = new Set(s.required ?? []);
  for (const [name, prop] of Object.entries(s.properties)) {
    const here = path ? `${path}.${name}` : name;
    const value = Object.prototype.hasOwnProperty.call(input, name) ? input[name] : undefined;
    const isObject = prop.type === 'object' || prop.$ref !== undefined;
    if (value === undefined || value === null) {
      if (required.has(name) && isObject) problems.push(`${here} is required`);
      continue;
    }
    problems.push(...missingRequiredObjects(prop as JsonSchemaObject, value, here));
  }
  return problems;
}

/** Whether any property (at any depth) is an object: only then can a required one be missing unseen. */
export function hasObjectProperties(schema: JsonSchemaObject): boolean {
  const s = schema as Schema;
  const children = [...Object.values(s.properties ?? {}), ...(s.items ? [s.items] : [])];
  return children.some((c) => c.type === 'object' || c.$ref !== undefined || hasObjectProperties(c as JsonSchemaObject));
}
