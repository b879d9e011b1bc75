import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { FrameworkError } from '../errors/framework-error';
import { dtoToJsonSchema } from './dto-schema';
import { getFieldOptions } from './field-metadata';
import { hostileInputProblems } from './hostile-input';
import { missingRequiredObjects } from './required-nested';
import { capped, flattenValidationErrors } from './validation-messages';

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
  const schema = dtoToJsonSchema(dto);
  const validate = (input: unknown): DtoValidation<T> => {
    const hostile = hostileInputProblems(input);
    if (hostile.length) return { ok: false, errors: capped(hostile) };
    try {
      const instance = plainToInstance(dto, input, { enableImplicitConversion: false, exposeDefaultValues: true }) as T;
      applyFieldDefaults(instance);
      const errors = validateSync(instance, { forbidUnknownValues: true, whitelist: true, forbidNonWhitelisted: true });
      const problems = [...missingRequiredObjects(schema, input), ...flattenValidationErrors(errors)];
      return problems.length ? { ok: false, errors: problems } : { ok: true, value: instance };
    } catch (error) {
      if (error instanceof FrameworkError) throw error; // a developer mistake, not bad input
      return { ok: false, errors: [`input could not be read: ${(error as Error)?.message ?? String(error)}`] };
    }
  };
  validators.set(dto, validate as (input: unknown) => DtoValidation<unknown>);
  return validate;
}

/** `@Field({ default })` fills an absent property, in nested DTO instances too (input depth is already bounded). */
function applyFieldDefaults(instance: unknown): void {
  if (instance === null || typeof instance !== 'object') return;
  if (Array.isArray(instance)) return instance.forEach(applyFieldDefaults);
  const cls = instance.constructor;
  if (cls === Object || typeof cls !== 'function') return;
  const target = instance as Record<string, unknown>;
  for (const [property, options] of getFieldOptions(cls)) {
    if ('default' in options && target[property] === undefined) target[property] = structuredClone(options.default);
  }
  for (const value of Object.values(target)) applyFieldDefaults(value);
}
