/**
 * A handler's input (a DTO class, a raw JSON Schema, or nothing) as bootstrap sees it: checked at
 * start-up, its JSON Schema and validator built on first use (issue 38). A DTO is checked on its
 * decorator metadata (schema/dto-check.ts), which refuses everything building its schema would; a raw
 * schema is copied and compiled at once, since compiling is its check.
 */
import { FrameworkError } from '../errors/framework-error';
import type { SchemaSource } from '../metadata/options';
import type { JsonObject } from '../protocol/jsonrpc';
import {
  checkDto,
  compileJsonSchema,
  createDtoValidator,
  dtoToJsonSchema,
  type DtoOutline,
  jsonSchemaFor,
} from '../schema';
import type { InputValidation } from './definitions';
import { hasUntypedInput, inferInputDto } from './handler-params';

const EMPTY_INPUT: JsonObject = Object.freeze({ type: 'object', additionalProperties: false }) as JsonObject;
const NO_NAMES: ReadonlySet<string> = new Set();

export interface CheckedInput {
  /** The input's JSON Schema: built on first read for a DTO, already built otherwise. */
  schema(): JsonObject;
  /** The arguments' validator: built on first read for a DTO, already built otherwise. */
  validator(): (args: unknown) => InputValidation;
  /** The schema's top-level property names, known without building it. */
  readonly names: ReadonlySet<string>;
  /** False when the schema cannot carry `x-mcp-header` (no header rule to check, no schema to build). */
  readonly mayDeclareHeaders: boolean;
  /** Whether the schema is already built (a raw schema, or no input). */
  readonly built: boolean;
}

/** Checks an input now; throws what building its schema and validator would. */
export function checkInput(source: SchemaSource | undefined): CheckedInput {
  if (source === undefined) {
    const validate = validatorFor(undefined);
    const schema = () => EMPTY_INPUT;
    return { schema, validator: () => validate, names: NO_NAMES, mayDeclareHeaders: false, built: true };
  }
  if (typeof source === 'function') {
    const outline = checkDto(source);
    return new DtoInput(source, outline);
  }
  const schema = jsonSchemaFor(source) as JsonObject;
  const validate = validatorFor(source);
  const properties = schema.properties;
  const names = properties && typeof properties === 'object' ? new Set(Object.keys(properties)) : NO_NAMES;
  return { schema: () => schema, validator: () => validate, names, mayDeclareHeaders: true, built: true };
}

/** A checked DTO: one object per handler, its schema and validator built on first read (no closure per handler). */
class DtoInput implements CheckedInput {
  readonly built = false;
  #schema?: JsonObject;
  #validator?: (args: unknown) => InputValidation;

  constructor(
    private readonly dto: Function,
    private readonly outline: DtoOutline,
  ) {}

  get names(): ReadonlySet<string> {
    return this.outline.names;
  }
  get mayDeclareHeaders(): boolean {
    return this.outline.mayDeclareHeaders;
  }

  /** Built from the facts the check kept in the outline (a DTO of a shared shape keeps none of its own). */
  schema(): JsonObject {
    return (this.#schema ??= dtoToJsonSchema(this.dto, this.outline) as JsonObject);
  }
  validator(): (args: unknown) => InputValidation {
    if (this.#validator) return this.#validator;
    this.schema(); // the validator reads the DTO's schema: built here from the outline's facts, not read again
    return (this.#validator = validatorFor(this.dto));
  }
}

/** Validator for a DTO class or a raw JSON Schema; a missing `arguments` is `{}`. */
export function validatorFor(source: SchemaSource | undefined): (args: unknown) => InputValidation {
  if (source === undefined) {
    // No input declared: the advertised schema is `additionalProperties: false`, so any key is refused.
    return (args) => {
      if (args === undefined) return { ok: true, value: {} };
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        return { ok: false, errors: ['arguments must be an object'] };
      const extra = Object.keys(args);
      return extra.length === 0
        ? { ok: true, value: args }
        : { ok: false, errors: extra.slice(0, 10).map((k) => `property ${k} should not exist`) };
    };
  }
  if (typeof source === 'function') {
    const validate = createDtoValidator(source as new () => object);
    return (args) => validate(args ?? {});
  }
  const check = compileJsonSchema(source);
  return (args) => {
    const value = args ?? {};
    const r = check(value);
    return r.ok ? { ok: true, value } : { ok: false, errors: r.errors };
  };
}

/** The declared input: the decorator's `input`/`args`, else the handler's DTO parameter. */
export function inputSource(owner: string, explicit: SchemaSource | undefined, paramTypes: readonly Function[]) {
  if (explicit !== undefined) return explicit;
  const dto = inferInputDto(paramTypes);
  if (dto === undefined && hasUntypedInput(paramTypes)) {
    throw new FrameworkError(
      'OMC_SCHEMA_UNSUPPORTED',
      `${owner}: the input parameter has no class type (an interface or object literal leaves no runtime trace). Declare a DTO class for it, or pass \`input\` in the decorator options; a tool without arguments can take just \`ctx: Context\`. If that parameter is the Context, import it as a value: \`import type { Context }\` erases it from the decorator metadata.`,
    );
  }
  return dto;
}

/** A schema problem found while building a definition names its handler. */
export function forOwner<T>(owner: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    throw forOwnerError(owner, e);
  }
}

/** What `forOwner` throws for `e`: a schema problem named by its handler. */
export function forOwnerError(owner: string, e: unknown): unknown {
  if (e instanceof FrameworkError && !e.detail.startsWith(`${owner}:`))
    return new FrameworkError(e.code, `${owner}: ${e.detail}`, { cause: e });
  return e;
}
