/**
 * The one way options are checked (DESIGN D9): each option is defined once, on an options class,
 * with its class-validator rules; this copies the input over the class defaults, refuses unknown
 * keys (with a "did you mean"), validates, runs the cross-field checks, and freezes. Every problem
 * is reported as `field: what is wrong`, all of them in one FrameworkError('OMC_INVALID_OPTIONS').
 */
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { FrameworkError } from '../errors/framework-error';
import { indexedMetadataStorage, targetValidationMetadatas } from '../schema/validation-metadata-index';
import { closestName } from './did-you-mean';

/** One thing wrong with the options: the field to change and what is wrong with it. */
export interface OptionProblem {
  field: string;
  message: string;
}

export interface OptionsSpec<T> {
  /** Shown in messages, e.g. `ContextServerOptions`. */
  label: string;
  /** Fields whose value is itself an options class (given as a plain object). */
  nested?: Record<string, new () => object>;
  /** Rules that involve several fields, run once the single-field rules pass. */
  checks?: (options: Readonly<T>) => OptionProblem[];
}

type OptionsClass = new () => object;

const knownKeysCache = new WeakMap<OptionsClass, readonly string[]>();
const validated = new WeakMap<object, OptionsClass>();

/**
 * Every option a class defines: fields with a default and fields with a validation decorator (inherited ones included).
 */
export function knownOptionKeys(cls: OptionsClass): readonly string[] {
  let keys = knownKeysCache.get(cls);
  if (!keys) {
    const found = new Set(Object.keys(new cls()));
    const metadatas = targetValidationMetadatas(indexedMetadataStorage(), cls, '', true, false);
    for (const m of metadatas) found.add(m.propertyName);
    keys = Object.freeze([...found]);
    knownKeysCache.set(cls, keys);
  }
  return keys;
}

/** True when `value` is the frozen result of `validateOptions(cls, …)` (no need to check it again). */
export function isValidatedOptions<T extends object>(value: unknown, cls: new () => T): value is Readonly<T> {
  return typeof value === 'object' && value !== null && validated.get(value) === cls;
}

export function optionsError(label: string, problems: readonly OptionProblem[]): FrameworkError {
  const lines = problems.map((p) => `  - ${p.field}: ${p.message}`);
  return new FrameworkError('OMC_INVALID_OPTIONS', `Invalid ${label}:\n${lines.join('\n')}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownKeys(input: Record<string, unknown>, cls: OptionsClass, path: string): OptionProblem[] {
  const known = knownOptionKeys(cls);
  return Object.keys(input)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const near = closestName(key, known);
      return {
        field: path + key,
        message: near
          ? `unknown option; did you mean "${near}"?`
          : `unknown option; known options are ${known.join(', ')}`,
      };
    });
}

/** class-validator messages start with the property name; the field is already in front of the line. */
function withoutProperty(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/** Numbers and booleans are echoed to help; strings never are (they may be keys or secrets). */
function got(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' ? ` (got ${String(value)})` : '';
}

function flatten(errors: ValidationError[], path = ''): OptionProblem[] {
  return errors.flatMap((e) => {
    const field = path + e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => ({
      field,
      message: withoutProperty(m, e.property) + got(e.value),
    }));
    return [...own, ...flatten(e.children ?? [], `${field}.`)];
  });
}

/**
 * Copies the given options over the class defaults (functions, keys and buffers kept as they are),
 * turns the nested plain objects into their option classes, validates, freezes. `checks` must
 * tolerate values that failed their own rules (they run in the same pass).
 */
export function validateOptions<T extends object>(cls: new () => T, input: unknown, spec: OptionsSpec<T>): Readonly<T> {
  if (!isPlainObject(input)) {
    throw optionsError(spec.label, [{ field: spec.label, message: 'expected an object of options' }]);
  }
  const nested = spec.nested ?? {};
  const problems = unknownKeys(input, cls, '');
  const instance = new cls() as Record<string, unknown>;
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || !knownOptionKeys(cls).includes(key)) continue;
    const nestedCls = nested[key];
    if (!nestedCls) {
      instance[key] = value;
    } else if (!isPlainObject(value)) {
      problems.push({
        field: key,
        message: `must be an object of ${nestedCls.name} (${knownOptionKeys(nestedCls).join(', ')})`,
      });
    } else {
      problems.push(...unknownKeys(value, nestedCls, `${key}.`));
      instance[key] = plainToInstance(nestedCls, value);
    }
  }
  problems.push(...flatten(validateSync(instance, { forbidUnknownValues: true })));
  // Cross-field checks run even after single-field problems, so one error names everything to fix.
  if (spec.checks) problems.push(...spec.checks(instance as T));
  if (problems.length) throw optionsError(spec.label, problems);
  for (const key of Object.keys(nested)) {
    if (isPlainObject(instance[key])) Object.freeze(instance[key]);
  }
  validated.set(instance, cls);
  return Object.freeze(instance) as Readonly<T>;
}
