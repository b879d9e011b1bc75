/**
 * A direct check of the flat object schemas the fast path accepts with (fast-path.ts), so the first call
 * of a typical tool does not load and run Ajv (~90 modules, its meta-schemas compiled: over 100 ms of
 * CPU on a cold process). It reads only the keywords below and gives up (undefined: Ajv is used) on any
 * other, so it accepts exactly what Ajv accepts for these schemas: `type` (one of string, integer,
 * number, boolean), `minimum`, `maximum`, `maxLength` (code points, as Ajv counts), `enum` of primitives,
 * `required`, `additionalProperties: false`; annotations are ignored as Ajv ignores them.
 */
import type { JsonSchemaObject } from './json-schema-types';

type Check = (value: unknown) => boolean;

const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'x-mcp-header']);
const OBJECT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', ...ANNOTATIONS]);

export function flatSchemaCheck(schema: JsonSchemaObject): ((input: Record<string, unknown>) => boolean) | undefined {
  const s = schema as Record<string, unknown>;
  if (s.type !== 'object' || s.additionalProperties !== false) return undefined;
  if (Object.keys(s).some((k) => !OBJECT_KEYWORDS.has(k))) return undefined;
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = (s.required ?? []) as unknown[];
  if (typeof properties !== 'object' || !Array.isArray(required)) return undefined;
  const checks = new Map<string, Check>();
  for (const name of Object.keys(properties)) {
    const check = valueCheck(properties[name]);
    if (!check) return undefined;
    checks.set(name, check);
  }
  if (!required.every((r) => typeof r === 'string' && checks.has(r))) return undefined;
  const requiredNames = required as string[];
  return (input) => {
    for (const name of requiredNames) if (!hasOwn(input, name) || input[name] === undefined) return false;
    for (const key in input) {
      const check = checks.get(key);
      if (check === undefined || !check(input[key])) return false;
    }
    return true;
  };
}

function valueCheck(schema: unknown): Check | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  const s = schema as Record<string, unknown>;
  const parts: Check[] = [];
  let type: unknown;
  for (const key of Object.keys(s)) {
    const v = s[key];
    if (ANNOTATIONS.has(key)) continue;
    if (key === 'type') type = v;
    else if ((key === 'minimum' || key === 'maximum' || key === 'maxLength') && typeof v !== 'number') return undefined;
    else if (key === 'minimum') parts.push((x) => typeof x !== 'number' || x >= (v as number));
    else if (key === 'maximum') parts.push((x) => typeof x !== 'number' || x <= (v as number));
    else if (key === 'maxLength') parts.push((x) => typeof x !== 'string' || codePoints(x) <= (v as number));
    else if (key === 'enum') {
      if (!Array.isArray(v) || v.some((e) => e !== null && typeof e === 'object')) return undefined;
      const allowed = v as unknown[];
      parts.push((x) => allowed.some((e) => e === x)); // Ajv's equality for primitives: NaN matches nothing
    } else return undefined;
  }
  const typed = typeCheck(type);
  if (!typed) return undefined;
  return (x) => typed(x) && parts.every((p) => p(x));
}

function typeCheck(type: unknown): Check | undefined {
  switch (type) {
    case undefined:
      return () => true;
    case 'string':
      return (x) => typeof x === 'string';
    case 'boolean':
      return (x) => typeof x === 'boolean';
    case 'integer':
      return (x) => Number.isInteger(x);
    case 'number':
      return (x) => typeof x === 'number' && Number.isFinite(x);
    default:
      return undefined;
  }
}

/** Ajv's `maxLength` counts code points: a surrogate pair is one character. */
function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}
