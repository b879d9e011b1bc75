/**
 * JSON Schema checks without code generation, for runtimes that forbid it (see code-generation.ts):
 * @cfworker/json-schema walks the schema for each value instead of compiling it. Its output lists a
 * line per schema level; only the leaves are kept, worded like the Ajv path's messages.
 */
import { Validator, type OutputUnit } from '@cfworker/json-schema';
import type { JsonSchemaObject } from './json-schema-types';
import { capped } from './validation-messages';
import { readablePath, type JsonSchemaValidation } from './json-schema-paths';

/** Keywords that only say "something below failed"; the failure below has its own line. */
const WRAPPERS = new Set([
  'properties', 'patternProperties', 'items', 'prefixItems', 'additionalItems', 'contains', 'allOf',
  '$ref', '$dynamicRef', '$recursiveRef', 'dependentSchemas', 'unevaluatedItems', 'false',
]);

export function interpretJsonSchema(
  schema: JsonSchemaObject,
  dialect: '2020-12' | 'draft-07',
): (input: unknown) => JsonSchemaValidation {
  // A copy: the validator marks the schema objects it walks, and ours are frozen.
  const validator = new Validator(structuredClone(schema) as never, dialect === '2020-12' ? '2020-12' : '7', false);
  return (input) => {
    const result = validator.validate(input);
    if (result.valid) return { ok: true };
    const errors = result.errors.filter((e) => !WRAPPERS.has(e.keyword)).map(describe);
    return { ok: false, errors: capped(errors.length > 0 ? errors : ['input is invalid']) };
  };
}

function describe(error: OutputUnit): string {
  const path = readablePath(error.instanceLocation.replace(/^#/, ''));
  const extra = /^Property "(.*)" does not match (?:additional|unevaluated) properties schema/.exec(error.error);
  if (extra) return `property ${path ? `${path}.${extra[1]}` : extra[1]} should not exist`;
  return `${path || 'input'} ${error.error.charAt(0).toLowerCase()}${error.error.slice(1).replace(/\.$/, '')}`;
}
