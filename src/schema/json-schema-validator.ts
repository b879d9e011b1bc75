import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { FrameworkError } from '../errors/framework-error';
import type { JsonSchemaObject } from './json-schema-types';
import { capped } from './validation-messages';

export type JsonSchemaValidation = { ok: true } | { ok: false; errors: string[] };

/**
 * One Ajv for the process: compiling is the expensive part, so validators are cached by schema identity.
 * `loadSchema` stays unset so a remote `$ref` is never fetched; `addUsedSchema: false` so two schemas
 * that happen to share an `$id` do not collide in the shared instance.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true, addUsedSchema: false });
addFormats(ajv);

const compiled = new WeakMap<object, (input: unknown) => JsonSchemaValidation>();

export function compileJsonSchema(schema: JsonSchemaObject): (input: unknown) => JsonSchemaValidation {
  const cached = compiled.get(schema);
  if (cached) return cached;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema as object);
  } catch (error) {
    throw new FrameworkError(
      'OMC_SCHEMA_UNSUPPORTED',
      `the JSON Schema cannot be compiled: ${(error as Error).message}; fix the schema or describe the input with a DTO`,
    );
  }
  const check = (input: unknown): JsonSchemaValidation =>
    validate(input) ? { ok: true } : { ok: false, errors: capped((validate.errors ?? []).map(describeAjvError)) };
  compiled.set(schema, check);
  return check;
}

/** `/address/city` → `address.city must be string`, `/tags/0` → `tags[0] …`; the root is called `input`. */
function describeAjvError(error: ErrorObject): string {
  const path = readablePath(error.instancePath);
  if (error.keyword === 'additionalProperties') {
    const extra = String(error.params.additionalProperty);
    return `property ${path ? `${path}.${extra}` : extra} should not exist`;
  }
  return `${path || 'input'} ${error.message ?? 'is invalid'}`;
}

function readablePath(pointer: string): string {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path ? `.${segment}` : segment;
  }
  return path;
}
