import { FrameworkError } from '../errors/framework-error';
import type { FieldOptions } from './field-metadata';
import { readDtoProperties, type DtoProperty, type ValidationMetadata } from './dto-properties';
import { readInitialiserDefaults } from './initialiser-defaults';
import { ARRAY_VALIDATORS, NARROWING_ONLY, NUMBER_VALIDATORS, STRING_FORMATS, type ValueKind } from './validator-vocabulary';

/** What one value (the property itself, or each item of an array property) must be. */
export interface ValueFacts {
  kind?: ValueKind;
  dto?: Function;
  enumValues?: readonly unknown[];
  constValue?: { readonly value: unknown };
  format?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minProperties?: number;
}

export interface ArrayFacts {
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

/** The decorators of one property, interpreted once, for every renderer (JSON Schema, elicitation form). */
export interface PropertyFacts {
  readonly dto: Function;
  readonly name: string;
  readonly optional: boolean;
  /** Present when the property is an array; `value` then describes each item. */
  readonly array: ArrayFacts | undefined;
  readonly value: ValueFacts;
  readonly field: FieldOptions;
  readonly defaultValue: { readonly value: unknown } | undefined;
  /** No class-validator decorator fixes its type (only `@Field` / the declared type do): the validator checks it against its schema. */
  readonly untypedByValidators: boolean;
}

const PRIMITIVE_KINDS = new Map<unknown, ValueKind>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

export function describeDtoProperties(dto: Function): PropertyFacts[] {
  const initialisers = readInitialiserDefaults(dto);
  return readDtoProperties(dto).map((property) => describeProperty(property, initialisers));
}

export function unsupported(dto: Function, property: string, problem: string): FrameworkError {
  return new FrameworkError('OMC_SCHEMA_UNSUPPORTED', `${dto.name}.${property}: ${problem}`);
}

function describeProperty(property: DtoProperty, initialisers: ReadonlyMap<string, unknown>): PropertyFacts {
  const { dto, name, field } = property;
  const fail = (problem: string): never => {
    throw unsupported(dto, name, problem);
  };
  const value: ValueFacts = {};
  const array: ArrayFacts = {};
  const unknownDecorators: string[] = [];
  let optional = false;
  let markedArray = property.designType === Array;
  let notEmpty = false;
  let nested = false;

  const setKind = (kind: ValueKind, because: string): void => {
    if (value.kind === undefined || value.kind === kind) value.kind = kind;
    else if (isNumeric(value.kind) && isNumeric(kind)) value.kind = 'integer';
    else fail(`${because} says ${kind} but another decorator says ${value.kind}; keep one type per property`);
  };

  for (const metadata of property.validations) {
    const decorator = decoratorName(metadata);
    const constraints: readonly unknown[] = metadata.constraints ?? [];
    if (metadata.each) markedArray = true;
    if (metadata.type === 'conditionalValidation') {
      optional = true; // @IsOptional and @ValidateIf both let an absent value through
      continue;
    }
    if (metadata.type === 'whitelistValidation' || decorator === 'isDefined') continue;
    if (metadata.type === 'promiseValidation') fail('@ValidatePromise has no JSON form; arguments are plain JSON');
    if (metadata.type === 'nestedValidation') {
      nested = true;
      continue;
    }
    if (ARRAY_VALIDATORS.has(decorator)) {
      markedArray = true;
      if (decorator === 'arrayMinSize') array.minItems = Number(constraints[0]);
      if (decorator === 'arrayMaxSize') array.maxItems = Number(constraints[0]);
      if (decorator === 'arrayNotEmpty') array.minItems = Math.max(array.minItems ?? 0, 1);
      if (decorator === 'arrayUnique' && constraints[0] === undefined) array.uniqueItems = true;
      continue;
    }
    if (markedArray && !metadata.each) {
      fail(`the property is an array but @${capitalise(decorator)} has no { each: true }, so no value could pass it`);
    }
    interpretValueDecorator(decorator, constraints, value, setKind, () => (notEmpty = true), () => unknownDecorators.push(decorator));
  }

  const untypedByValidators = !nested && value.kind === undefined && value.enumValues === undefined && value.constValue === undefined;
  const needsDate = property.validations.some((m) => m.name === 'isDate');
  if (needsDate && property.transformType !== Date) fail('a Date arrives as a string: add @Type(() => Date) next to @IsDate()');
  const fieldType = field.type?.();
  const isArray = markedArray || fieldTypeMeansArray(property.designType);
  if (field.schema === undefined) {
    if (nested) {
      const cls = property.transformType ?? fieldType ?? (isArray ? undefined : classOf(property.designType));
      if (!cls || PRIMITIVE_KINDS.has(cls)) fail('@ValidateNested needs the nested class: add @Type(() => TheDto) (class-transformer)');
      setKind('dto', '@ValidateNested');
      value.dto = cls;
    }
    if (value.kind === undefined && value.enumValues === undefined && value.constValue === undefined) {
      inferFromTypes(property, isArray, fieldType, value, setKind, unknownDecorators, fail);
    }
    if (value.kind === undefined && value.enumValues !== undefined) value.kind = enumKind(value.enumValues);
    if (notEmpty && value.kind === 'string') value.minLength = Math.max(value.minLength ?? 0, 1);
    if (field.format !== undefined) value.format = field.format;
  }

  const defaultValue =
    'default' in field ? { value: field.default } : initialisers.has(name) ? { value: initialisers.get(name) } : undefined;
  return {
    dto,
    name,
    optional,
    array: isArray ? array : undefined,
    value,
    field,
    defaultValue,
    untypedByValidators,
  };
}

type KindSetter = (kind: ValueKind, because: string) => void;

function interpretValueDecorator(
  decorator: string,
  constraints: readonly unknown[],
  value: ValueFacts,
  setKind: KindSetter,
  markNotEmpty: () => void,
  markUnknown: () => void,
): void {
  const at = `@${capitalise(decorator)}`;
  if (decorator in STRING_FORMATS) {
    setKind('string', at);
    const format = STRING_FORMATS[decorator] ?? ipFormat(decorator, constraints);
    if (format) value.format = format;
    if (decorator === 'minLength') value.minLength = Number(constraints[0]);
    if (decorator === 'maxLength') value.maxLength = Number(constraints[0]);
    if (decorator === 'isLength') {
      if (typeof constraints[0] === 'number') value.minLength = constraints[0];
      if (typeof constraints[1] === 'number') value.maxLength = constraints[1];
    }
    if (decorator === 'matches') {
      const pattern = patternOf(constraints[0], constraints[1]);
      if (pattern !== undefined) value.pattern = pattern; // a flagged regex has no faithful JSON form: stay wider
    }
    return;
  }
  if (NUMBER_VALIDATORS.has(decorator)) {
    setKind('number', at);
    const bound = Number(constraints[0]);
    if (decorator === 'min') value.minimum = bound;
    if (decorator === 'max') value.maximum = bound;
    if (decorator === 'isPositive') value.exclusiveMinimum = 0;
    if (decorator === 'isNegative') value.exclusiveMaximum = 0;
    if (decorator === 'isDivisibleBy') value.multipleOf = bound;
    return;
  }
  switch (decorator) {
    case 'isInt':
      return setKind('integer', at);
    case 'isNumber':
      return setKind('number', at);
    case 'isBoolean':
      return setKind('boolean', at);
    case 'isObject':
      return setKind('object', at);
    case 'isNotEmptyObject':
      setKind('object', at);
      value.minProperties = 1;
      return;
    case 'isDate':
      setKind('string', at);
      value.format = 'date-time';
      return;
    case 'isEnum':
      value.enumValues = [...((constraints[1] as unknown[] | undefined) ?? [])];
      return;
    case 'isIn':
      value.enumValues = [...((constraints[0] as unknown[] | undefined) ?? [])];
      return;
    case 'equals':
      value.constValue = { value: constraints[0] };
      return;
    case 'isNotEmpty':
      return markNotEmpty();
    default:
      if (!NARROWING_ONLY.has(decorator)) markUnknown();
  }
}

/** No class-validator decorator fixed the type: fall back on `@Field({type})`, then on `design:type`. */
function inferFromTypes(
  property: DtoProperty,
  isArray: boolean,
  fieldType: Function | undefined,
  value: ValueFacts,
  setKind: KindSetter,
  unknownDecorators: readonly string[],
  fail: (problem: string) => never,
): void {
  const candidate = fieldType ?? (isArray ? undefined : property.designType);
  const primitive = PRIMITIVE_KINDS.get(candidate);
  if (primitive) return setKind(primitive, '@Field({ type }) / the declared type');
  if (candidate === Date) {
    if (property.transformType !== Date) fail('a Date arrives as a string: add @Type(() => Date) and @IsDate()');
    setKind('string', 'the declared type Date');
    value.format = 'date-time';
    return;
  }
  const cls = classOf(candidate);
  if (cls) fail(`nested ${cls.name} is not validated: add @ValidateNested() and @Type(() => ${cls.name})`);
  const unknown = unknownDecorators.length ? ` (not understood: ${unknownDecorators.map((d) => `@${capitalise(d)}`).join(', ')})` : '';
  if (isArray) {
    fail(`say what the items are${unknown}: e.g. @IsString({ each: true }), @Field({ type: () => String }), or @Field({ schema })`);
  }
  fail(`its type cannot be told${unknown}: add a type decorator such as @IsString(), or @Field({ type }) / @Field({ schema })`);
}

function decoratorName(metadata: ValidationMetadata): string {
  return metadata.name ?? (metadata.constraintCls?.name || metadata.type);
}

function isNumeric(kind: ValueKind): boolean {
  return kind === 'number' || kind === 'integer';
}

function fieldTypeMeansArray(designType: unknown): boolean {
  return designType === Array || designType === Set;
}

/** A user class (not a built-in the design type names for unions, `any`, interfaces…). */
function classOf(type: unknown): Function | undefined {
  if (typeof type !== 'function') return undefined;
  if ([Object, Array, Function, Promise, Map, Set, Symbol, BigInt, Date].includes(type as never) || PRIMITIVE_KINDS.has(type)) return undefined;
  return type;
}

function enumKind(values: readonly unknown[]): ValueKind | undefined {
  if (values.length && values.every((v) => typeof v === 'string')) return 'string';
  if (values.length && values.every((v) => Number.isInteger(v))) return 'integer';
  if (values.length && values.every((v) => typeof v === 'number')) return 'number';
  return undefined;
}

function ipFormat(decorator: string, constraints: readonly unknown[]): string | undefined {
  if (decorator !== 'isIp') return undefined;
  const version = String(constraints[0] ?? '');
  return version === '4' ? 'ipv4' : version === '6' ? 'ipv6' : undefined;
}

function patternOf(pattern: unknown, modifiers: unknown): string | undefined {
  if (pattern instanceof RegExp) return pattern.flags.replace(/[gu]/g, '') === '' ? pattern.source : undefined;
  if (typeof pattern === 'string' && !modifiers) return pattern;
  return undefined;
}

function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
