import type AjvDraft07 from 'ajv';
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type addFormats from 'ajv-formats';
import { FrameworkError } from '../errors/framework-error';
import type { JsonSchemaObject } from './json-schema-types';
import { capped } from './validation-messages';
import { codeGenerationRefusal, isCodeGenerationRefusal, recordCodeGenerationRefusal } from './code-generation';
import { interpretJsonSchema } from './interpreted-validator';
import { readablePath, type JsonSchemaValidation } from './json-schema-paths';

export type { JsonSchemaValidation } from './json-schema-paths';

/**
 * One Ajv per dialect for the process: compiling is the expensive part, so validators are cached by
 * schema identity. `loadSchema` stays unset so a remote `$ref` is never fetched; `addUsedSchema: false`
 * so two schemas that happen to share an `$id` do not collide in the shared instance; no logger, so a
 * runtime that refuses code generation does not get the generated source printed (we log the reason).
 */
const AJV_OPTIONS = { strict: false, allErrors: true, addUsedSchema: false, logger: false } as const;
let ajv2020: Ajv2020 | undefined;
let ajv07: AjvDraft07 | undefined;

/**
 * The JSON Schema dialects a raw schema may declare with `$schema`: 2020-12 (the default when
 * `$schema` is absent, as the MCP spec says) and draft-07 (what many existing tools publish).
 */
const DIALECTS: ReadonlyMap<string, '2020-12' | 'draft-07'> = new Map([
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['http://json-schema.org/draft-07/schema', 'draft-07'],
]);

/** The dialect of a raw schema; a `$schema` we do not support is a start-up error. */
export function schemaDialect(schema: JsonSchemaObject): '2020-12' | 'draft-07' {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined) return '2020-12';
  const dialect = typeof declared === 'string' ? DIALECTS.get(declared.replace(/#$/, '')) : undefined;
  if (!dialect) {
    throw new FrameworkError(
      'OMC_SCHEMA_UNSUPPORTED',
      `$schema ${JSON.stringify(declared)} is not a supported dialect: use JSON Schema 2020-12 ("https://json-schema.org/draft/2020-12/schema", the default when $schema is absent) or draft-07 ("http://json-schema.org/draft-07/schema#")`,
    );
  }
  return dialect;
}

/*
 * Ajv (~90 modules, and its constructor compiles the meta-schemas) is required on the first compile,
 * not at start-up: a server whose tools take no input, or whose first call has not come yet, never
 * loads it. Plain requires: the ESM build turns them into a require made on first use (esm-build.mjs).
 */
/* eslint-disable @typescript-eslint/no-require-imports */
function ajvFor(schema: JsonSchemaObject): Ajv2020 | AjvDraft07 {
  const formats = (): typeof addFormats => (require('ajv-formats') as { default: typeof addFormats }).default;
  if (schemaDialect(schema) === '2020-12') {
    if (!ajv2020) {
      ajv2020 = new (require('ajv/dist/2020') as { default: typeof Ajv2020 }).default(AJV_OPTIONS);
      formats()(ajv2020);
    }
    return ajv2020;
  }
  if (!ajv07) {
    ajv07 = new (require('ajv') as { default: typeof AjvDraft07 }).default(AJV_OPTIONS);
    formats()(ajv07);
  }
  return ajv07;
}
/* eslint-enable @typescript-eslint/no-require-imports */

const compiled = new WeakMap<object, (input: unknown) => JsonSchemaValidation>();

export function compileJsonSchema(schema: JsonSchemaObject): (input: unknown) => JsonSchemaValidation {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const interpreted = () => {
    const check = interpretJsonSchema(schema, schemaDialect(schema));
    compiled.set(schema, check);
    return check;
  };
  if (codeGenerationRefusal() !== undefined) return interpreted();
  let validate: ValidateFunction;
  try {
    validate = ajvFor(schema).compile(schema as object);
  } catch (error) {
    if (isCodeGenerationRefusal(error)) {
      recordCodeGenerationRefusal(error);
      return interpreted();
    }
    // Our own refusal (an unsupported dialect) already says what to do.
    if (error instanceof FrameworkError) throw error;
    throw new FrameworkError(
      'OMC_SCHEMA_UNSUPPORTED',
      `the JSON Schema cannot be compiled: ${(error as Error).message}; fix the schema or describe the input with a DTO`,
      { cause: error },
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
