/**
 * The one way options are checked (DESIGN D9): each option is defined once, on an options class,
 * with its class-validator rules; this copies the input over the class defaults, refuses unknown
 * keys (with a "did you mean"), validates, runs the cross-field checks, and freezes. Every problem
 * is reported as `field: what is wrong`, all of them in one FrameworkError('OMC_INVALID_OPTIONS').
 */
import { plainToInstance } from 'class-transformer';
import { IS_OPTIONAL, ValidationTypes, validateSync, type ValidationError } from 'class-validator';
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
  /**
   * A hand-written check of the class's rules that says yes only when every given option is a known
   * one and certainly passes them (no nested options). Then class-validator neither walks its metadata
   * nor runs (issue 38: at start-up that work is for the options alone); any other answer takes the
   * full check, which words every refusal. A test must hold it to the decorators.
   */
  accept?: (input: Record<string, unknown>) => boolean;
}

type OptionsClass = new () => object;

const knownKeysCache = new WeakMap<OptionsClass, readonly string[]>();
const requiredKeysCache = new WeakMap<OptionsClass, readonly string[] | 'always-validate-all'>();
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
 * The options a class needs given: those with rules, no default and no `@IsOptional()` (a server's
 * `name`). Their absence fails validation, so only the full check can word it. A rule that depends on a
 * condition other than `@IsOptional()` (`@ValidateIf`) may read any field: then every check is full.
 */
function requiredKeys(cls: OptionsClass): readonly string[] | 'always-validate-all' {
  let required = requiredKeysCache.get(cls);
  if (!required) {
    const defaults = new cls() as Record<string, unknown>;
    const metadatas = targetValidationMetadatas(indexedMetadataStorage(), cls, '', true, false);
    const conditional = metadatas.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
    const optional = new Set(conditional.map((m) => m.propertyName));
    required = conditional.some((m) => m.name !== IS_OPTIONAL)
      ? 'always-validate-all'
      : Object.freeze(
          [...new Set(metadatas.map((m) => m.propertyName))].filter(
            (k) => defaults[k] === undefined && !optional.has(k),
          ),
        );
    requiredKeysCache.set(cls, required);
  }
  return required;
}

/** Whether the given values can be checked alone (see ruleProblems); nested options are checked whole. */
function checkableAlone(
  cls: OptionsClass,
  values: Record<string, unknown>,
  given: readonly string[],
  nested: OptionsSpec<object>['nested'] = {},
): boolean {
  const required = requiredKeys(cls);
  if (required === 'always-validate-all' || required.some((k) => !given.includes(k))) return false;
  return given.every((key) => {
    const value = values[key];
    if (value === null) return false;
    const nestedCls = nested[key];
    if (!nestedCls || !isPlainObject(value)) return true;
    const own = Object.keys(value).filter((k) => value[k] !== undefined && value[k] !== null);
    return own.length === Object.keys(value).length && checkableAlone(nestedCls, value, own);
  });
}

/**
 * The single-field rules of the options given. Those left out keep their class default, and every
 * default passes its own rules (test/unit/config/option-defaults.test.ts checks each options class), so
 * only the given ones are checked: `skipMissingProperties` over an object holding just them. Decorator
 * rules read one field (rules over several fields are `checks`, run on the whole options). A required
 * option left out, or a null or undefined one (which `skipMissingProperties` would skip), takes the
 * full check.
 */
function ruleProblems<T extends object>(
  cls: OptionsClass,
  instance: Record<string, unknown>,
  given: readonly string[],
  spec: OptionsSpec<T>,
): OptionProblem[] {
  if (!checkableAlone(cls, instance, given, spec.nested)) {
    return flatten(validateSync(instance, { forbidUnknownValues: true }));
  }
  if (given.length === 0) return [];
  const only = Object.create(cls.prototype) as Record<string, unknown>;
  for (const key of given) only[key] = instance[key];
  return flatten(validateSync(only, { forbidUnknownValues: true, skipMissingProperties: true }));
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
  if (spec.accept?.(input)) return acceptedOptions(cls, input, spec);
  const nested = spec.nested ?? {};
  // No option given (a server's defaults): no key to look up, so no walk of the class's metadata for them.
  const problems = Object.keys(input).length > 0 ? unknownKeys(input, cls, '') : [];
  const instance = new cls() as Record<string, unknown>;
  const given: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || !knownOptionKeys(cls).includes(key)) continue;
    const nestedCls = nested[key];
    if (!nestedCls) {
      instance[key] = value;
      given.push(key);
    } else if (!isPlainObject(value)) {
      problems.push({
        field: key,
        message: `must be an object of ${nestedCls.name} (${knownOptionKeys(nestedCls).join(', ')})`,
      });
    } else {
      problems.push(...unknownKeys(value, nestedCls, `${key}.`));
      instance[key] = plainToInstance(nestedCls, value);
      given.push(key);
    }
  }
  problems.push(...ruleProblems(cls, instance, given, spec));
  // Cross-field checks run even after single-field problems, so one error names everything to fix.
  if (spec.checks) problems.push(...spec.checks(instance as T));
  if (problems.length) throw optionsError(spec.label, problems);
  for (const key of Object.keys(nested)) {
    if (isPlainObject(instance[key])) Object.freeze(instance[key]);
  }
  validated.set(instance, cls);
  return Object.freeze(instance) as Readonly<T>;
}

/**
 * An `accept` for a class none of whose options is required: nothing given is its defaults, and every
 * default passes its rules (test/unit/config/option-defaults.test.ts), so a server that configures
 * nothing reads none of the class's metadata (issue 38). Its test compares it with the full check.
 */
export const noOptionsGiven = (input: Record<string, unknown>): boolean => Object.keys(input).length === 0;

/** validateOptions' result for options its spec's `accept` passed: the same frozen instance, without the checks. */
function acceptedOptions<T extends object>(
  cls: new () => T,
  input: Record<string, unknown>,
  spec: OptionsSpec<T>,
): Readonly<T> {
  const instance = new cls() as Record<string, unknown>;
  for (const key of Object.keys(input)) if (input[key] !== undefined) instance[key] = input[key];
  const problems = spec.checks?.(instance as T) ?? [];
  if (problems.length) throw optionsError(spec.label, problems);
  for (const key of Object.keys(spec.nested ?? {})) {
    if (isPlainObject(instance[key])) Object.freeze(instance[key]);
  }
  validated.set(instance, cls);
  return Object.freeze(instance) as Readonly<T>;
}
