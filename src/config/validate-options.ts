/** Options classes are validated once, at construction, then frozen (DESIGN D9). */
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { FrameworkError } from '../errors/framework-error';

function flatten(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((e) => {
    const here = path ? `${path}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => `${here}: ${m}`);
    return [...own, ...flatten(e.children ?? [], here)];
  });
}

/**
 * Copies the given options over the class defaults (functions, keys and buffers kept as they are),
 * turns the listed nested plain objects into their option classes, validates, freezes.
 */
export function validateOptions<T extends object>(
  cls: new () => T,
  input: object,
  label: string,
  nested: Record<string, new () => object> = {},
): Readonly<T> {
  if (typeof input !== 'object' || input === null) {
    throw new FrameworkError('OMC_INVALID_OPTIONS', `Invalid ${label}: expected an object.`);
  }
  const instance = new cls() as Record<string, unknown>;
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const nestedCls = nested[key];
    instance[key] = nestedCls && typeof value === 'object' && value !== null ? plainToInstance(nestedCls, value) : value;
  }
  const errors = validateSync(instance, { forbidUnknownValues: true });
  if (errors.length) {
    throw new FrameworkError('OMC_INVALID_OPTIONS', `Invalid ${label}:\n  - ${flatten(errors).join('\n  - ')}`);
  }
  return Object.freeze(instance) as Readonly<T>;
}
