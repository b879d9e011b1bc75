import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { FrameworkError } from '../errors/framework-error';
import { dtoToJsonSchema } from './dto-schema';
import { getFieldOptions } from './field-metadata';
import { hostileInputProblems } from './hostile-input';
import { hasStructuredProperties, shapeProblems } from './required-nested';
import { fastAcceptFor, type FastAccept } from './fast-path';
import { capped, flattenValidationErrors } from './validation-messages';
import { indexedMetadataStorage } from './validation-metadata-index';

export type DtoValidation<T> = { ok: true; value: T } | { ok: false; errors: string[] };

const validators = new WeakMap<Function, (input: unknown) => DtoValidation<unknown>>();

/**
 * Transform + validate arguments (or an elicitation answer) into a DTO instance. Built once per class;
 * building it also builds the schema, so a DTO the schema layer cannot express fails at start-up.
 * Never throws for bad input: every problem comes back as a readable message.
 */
export function createDtoValidator<T extends object>(dto: new () => T): (input: unknown) => DtoValidation<T> {
  const cached = validators.get(dto);
  if (cached) return cached as (input: unknown) => DtoValidation<T>;
  indexedMetadataStorage(); // validateSync's per-object lookup, without a scan of every registered class
  const schema = dtoToJsonSchema(dto);
  const checksShape = hasStructuredProperties(schema);
  // No property (a class with no field): class-validator refuses an instance it knows nothing of, so
  // the closed empty schema is checked here.
  const noProperties = Object.keys((schema.properties as object | undefined) ?? {}).length === 0;
  // Decided and compiled on first use: start-up with hundreds of tools pays for none of them.
  let fastAccept: FastAccept | undefined | null = null;
  const validate = (input: unknown): DtoValidation<T> => {
    const hostile = hostileInputProblems(input);
    if (hostile.length) return { ok: false, errors: capped(hostile) };
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      return { ok: false, errors: ['input must be an object'] };
    if (noProperties) {
      const extra = Object.keys(input);
      return extra.length
        ? { ok: false, errors: capped(extra.map((k) => `property ${k} should not exist`)) }
        : { ok: true, value: new dto() };
    }
    if (fastAccept === null) fastAccept = fastAcceptFor(dto, schema);
    if (fastAccept?.(input as Record<string, unknown>)) {
      const instance = Object.assign(new dto(), input);
      applyFieldDefaults(instance);
      return { ok: true, value: instance };
    }
    try {
      const instance = plainToInstance(dto, input, { enableImplicitConversion: false, exposeDefaultValues: true }) as T;
      applyFieldDefaults(instance);
      const errors = validateSync(instance, { forbidUnknownValues: true, whitelist: true, forbidNonWhitelisted: true });
      const missing = checksShape ? shapeProblems(schema, input) : [];
      const problems = missing.length
        ? [...missing, ...flattenValidationErrors(errors)]
        : flattenValidationErrors(errors);
      return problems.length ? { ok: false, errors: problems } : { ok: true, value: instance };
    } catch (error) {
      if (error instanceof FrameworkError) throw error; // a developer mistake, not bad input
      return { ok: false, errors: [`input could not be read: ${(error as Error)?.message ?? String(error)}`] };
    }
  };
  validators.set(dto, validate as (input: unknown) => DtoValidation<unknown>);
  return validate;
}

/** Per class, the `@Field({ default })` entries: read once (decorators ran before any validator exists). */
const defaultsByClass = new WeakMap<Function, ReadonlyArray<readonly [string, unknown]>>();
function fieldDefaults(cls: Function): ReadonlyArray<readonly [string, unknown]> {
  let defaults = defaultsByClass.get(cls);
  if (!defaults) {
    defaults = [...getFieldOptions(cls)].filter(([, o]) => 'default' in o).map(([p, o]) => [p, o.default] as const);
    defaultsByClass.set(cls, defaults);
  }
  return defaults;
}

/** `@Field({ default })` fills an absent property, in nested DTO instances too (input depth is already bounded). */
function applyFieldDefaults(instance: unknown): void {
  if (instance === null || typeof instance !== 'object') return;
  if (Array.isArray(instance)) return instance.forEach(applyFieldDefaults);
  const cls = instance.constructor;
  if (cls === Object || typeof cls !== 'function') return;
  const target = instance as Record<string, unknown>;
  for (const [property, value] of fieldDefaults(cls)) {
    if (target[property] === undefined) target[property] = structuredClone(value);
  }
  for (const key in target) {
    const value = target[key];
    if (value !== null && typeof value === 'object') applyFieldDefaults(value);
  }
}
