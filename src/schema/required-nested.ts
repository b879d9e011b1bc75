/**
 * What class-validator does not see of a DTO's shape, read from the schema the DTO generates:
 * @ValidateNested skips an absent value (so a required nested DTO would pass unnoticed) and lets an
 * array stand for one nested object (so `inner: []` skipped the nested required fields), and a
 * list property without @IsArray takes an object. The schema says what each property is: an
 * object (a nested DTO) takes only a plain object, a list only an array, at every depth.
 */
import type { JsonSchemaObject } from './json-schema-types';

type Schema = {
  type?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  $ref?: string;
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isObjectSchema(s: Schema): boolean {
  return s.type === 'object' || s.$ref !== undefined;
}

/** Problems with the shape of `input` against the DTO's schema (the root must be an object). */
export function shapeProblems(schema: JsonSchemaObject, input: unknown, path = ''): string[] {
  const s = schema as Schema;
  if (s.type === 'array') {
    if (!Array.isArray(input)) return [`${path || 'input'} must be an array`];
    return s.items ? input.flatMap((item, i) => shapeProblems(s.items as JsonSchemaObject, item, `${path}[${i}]`)) : [];
  }
  if (!isObjectSchema(s)) return [];
  if (!isRecord(input)) return [`${path || 'input'} must be an object`];
  if (!s.properties) return [];
  const problems: string[] = [];
  const required = new Set(s.required ?? []);
  for (const [name, prop] of Object.entries(s.properties)) {
    const here = path ? `${path}.${name}` : name;
    const value = Object.prototype.hasOwnProperty.call(input, name) ? input[name] : undefined;
    if (value === undefined || value === null) {
      if (required.has(name) && isObjectSchema(prop)) problems.push(`${here} is required`);
      continue;
    }
    problems.push(...shapeProblems(prop as JsonSchemaObject, value, here));
  }
  return problems;
}

/** Whether any property (at any depth) is an object or a list: only then can its shape be wrong unseen. */
export function hasStructuredProperties(schema: JsonSchemaObject): boolean {
  const s = schema as Schema;
  const children = [...Object.values(s.properties ?? {}), ...(s.items ? [s.items] : [])];
  return children.some(
    (c) => isObjectSchema(c) || c.type === 'array' || hasStructuredProperties(c as JsonSchemaObject),
  );
}
