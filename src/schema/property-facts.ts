/**
 * The decorators of one DTO property, interpreted once for every renderer (JSON Schema,
 * elicitation form, value checks): class-validator's first, then `@Field({ type })`, then the
 * declared TypeScript type. Anything that has no faithful JSON form fails at start-up.
 */
import { FrameworkError } from '../errors/framework-error';
import type { FieldOptions } from './field-metadata';
import { readDtoProperties, type DtoProperty, type ValidationMetadata } from './dto-properties';
import { readInstanceFields, type InstanceFields } from './initialiser-defaults';
import { capitalise, interpretValueDecorator, type ValueFacts, type ValueSink } from './value-decorators';
import { ARRAY_VALIDATORS, type ValueKind } from './validator-vocabulary';

export type { ValueFacts } from './value-decorators';

export interface ArrayFacts {
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

/** The decorators of one property, interpreted once, for every renderer (JSON Schema, elicitation form). */
export interface PropertyFacts {
  readonly name: string;
  readonly optional: boolean;
  /** Present when the property is an array; `value` then describes each item. */
  readonly array: ArrayFacts | undefined;
  readonly value: ValueFacts;
  readonly field: FieldOptions;
  readonly defaultValue: { readonly value: unknown } | undefined;
  /**
   * No class-validator decorator fixes its type (only `@Field` / the declared type do): the validator checks it against
   * its schema.
   */
  readonly untypedByValidators: boolean;
}

const PRIMITIVE_KINDS = new Map<unknown, ValueKind>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

/** `fields`: the instance's, when the caller read them already. */
export function describeDtoProperties(dto: Function, fields?: InstanceFields): PropertyFacts[] {
  fields ??= readInstanceFields(dto);
  const initialisers = fields.defaults;
  return readDtoProperties(dto).map((property) => describeProperty(property, initialisers));
}

export function unsupported(dto: Function, property: string, problem: string): FrameworkError {
  return new FrameworkError('OMC_SCHEMA_UNSUPPORTED', `${dto.name}.${property}: ${problem}`);
}

function describeProperty(property: DtoProperty, initialisers: ReadonlyMap<string, unknown>): PropertyFacts {
  const reading = new PropertyReading(property);
  const { validations } = property;
  for (let i = 0; i < validations.length; i++) reading.readValidator(validations[i]!);
  const untypedByValidators = reading.untypedByValidators();
  const isArray = reading.settleType();
  const { name, field } = property;
  const defaultValue =
    'default' in field
      ? { value: field.default }
      : initialisers.has(name)
        ? { value: initialisers.get(name) }
        : undefined;
  return {
    name,
    optional: reading.optional,
    array: isArray ? reading.array : undefined,
    value: reading.value,
    field,
    defaultValue,
    untypedByValidators,
  };
}

/** One property's decorators read in order, then its type settled from what they left open. */
class PropertyReading implements ValueSink {
  readonly value: ValueFacts = {};
  readonly array: ArrayFacts = {};
  optional = false;
  private readonly unknownDecorators: string[] = [];
  private markedArray: boolean;
  private notEmpty = false;
  private nested = false;

  constructor(private readonly property: DtoProperty) {
    this.markedArray = property.designType === Array;
  }

  fail(problem: string): never {
    throw unsupported(this.property.dto, this.property.name, problem);
  }

  /** `because` names what says so: `@isString` (a decorator, capitalised here) or a phrase. */
  setKind(kind: ValueKind, because: string): void {
    const value = this.value;
    if (value.kind === undefined || value.kind === kind) value.kind = kind;
    else if (isNumeric(value.kind) && isNumeric(kind)) value.kind = 'integer';
    else {
      const what = because.startsWith('@') ? `@${capitalise(because.slice(1))}` : because;
      this.fail(`${what} says ${kind} but another decorator says ${value.kind}; keep one type per property`);
    }
  }

  markNotEmpty(): void {
    this.notEmpty = true;
  }

  markUnknown(decorator: string): void {
    this.unknownDecorators.push(decorator);
  }

  readValidator(metadata: ValidationMetadata): void {
    const decorator = decoratorName(metadata);
    const constraints: readonly unknown[] = metadata.constraints ?? [];
    if (metadata.each) this.markedArray = true;
    if (metadata.type === 'conditionalValidation') {
      this.optional = true; // @IsOptional and @ValidateIf both let an absent value through
      return;
    }
    if (metadata.type === 'whitelistValidation' || decorator === 'isDefined') return;
    if (metadata.type === 'promiseValidation') this.fail('@ValidatePromise has no JSON form; arguments are plain JSON');
    if (metadata.type === 'nestedValidation') {
      this.nested = true;
      return;
    }
    if (ARRAY_VALIDATORS.has(decorator)) return this.readArrayValidator(decorator, constraints);
    if (this.markedArray && !metadata.each) {
      this.fail(
        `the property is an array but @${capitalise(decorator)} has no { each: true }, so no value could pass it`,
      );
    }
    interpretValueDecorator(decorator, constraints, this);
  }

  private readArrayValidator(decorator: string, constraints: readonly unknown[]): void {
    const array = this.array;
    this.markedArray = true;
    if (decorator === 'arrayMinSize') array.minItems = Number(constraints[0]);
    if (decorator === 'arrayMaxSize') array.maxItems = Number(constraints[0]);
    if (decorator === 'arrayNotEmpty') array.minItems = Math.max(array.minItems ?? 0, 1);
    if (decorator === 'arrayUnique' && constraints[0] === undefined) array.uniqueItems = true;
  }

  untypedByValidators(): boolean {
    const value = this.value;
    return !this.nested && value.kind === undefined && value.enumValues === undefined && value.constValue === undefined;
  }

  /** Settles the value's type from what the validators left open; returns whether the property is an array. */
  settleType(): boolean {
    const { property, value } = this;
    const needsDate = property.validations.some((m) => m.name === 'isDate');
    if (needsDate && property.transformType !== Date)
      this.fail('a Date arrives as a string: add @Type(() => Date) next to @IsDate()');
    const fieldType = property.field.type?.();
    const isArray = this.markedArray || fieldTypeMeansArray(property.designType);
    if (property.field.schema !== undefined) return isArray;
    if (this.nested) {
      const cls = property.transformType ?? fieldType ?? (isArray ? undefined : classOf(property.designType));
      if (!cls || PRIMITIVE_KINDS.has(cls))
        this.fail('@ValidateNested needs the nested class: add @Type(() => TheDto) (class-transformer)');
      this.setKind('dto', '@ValidateNested');
      value.dto = cls;
    }
    if (value.kind === undefined && value.enumValues === undefined && value.constValue === undefined) {
      inferFromTypes(property, isArray, fieldType, value, this, this.unknownDecorators);
    }
    if (value.kind === undefined && value.enumValues !== undefined) value.kind = enumKind(value.enumValues);
    if (this.notEmpty && value.kind === 'string') value.minLength = Math.max(value.minLength ?? 0, 1);
    if (property.field.format !== undefined) value.format = property.field.format;
    return isArray;
  }
}

/** No class-validator decorator fixed the type: fall back on `@Field({type})`, then on `design:type`. */
function inferFromTypes(
  property: DtoProperty,
  isArray: boolean,
  fieldType: Function | undefined,
  value: ValueFacts,
  reading: PropertyReading,
  unknownDecorators: readonly string[],
): void {
  const setKind = (kind: ValueKind, because: string) => reading.setKind(kind, because);
  const fail = (problem: string): never => reading.fail(problem);
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
  const unknown = unknownDecorators.length
    ? ` (not understood: ${unknownDecorators.map((d) => `@${capitalise(d)}`).join(', ')})`
    : '';
  if (isArray) {
    fail(
      `say what the items are${unknown}: e.g. @IsString({ each: true }), @Field({ type: () => String }), or @Field({ schema })`,
    );
  }
  // No design:type at all: the class was defined before reflect-metadata was loaded (or without
  // emitDecoratorMetadata), so TypeScript's type annotations left nothing to read.
  const noDesignType =
    property.designType === undefined
      ? `; no design:type was recorded for it: import 'reflect-metadata' first (the first line of your entry file, ` +
        `before any module that defines a decorated class) and keep "emitDecoratorMetadata": true in tsconfig`
      : '';
  fail(
    `its type cannot be told${unknown}: add a type decorator such as @IsString(), or @Field({ type }) / @Field({ schema })${noDesignType}`,
  );
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
  if (
    [Object, Array, Function, Promise, Map, Set, Symbol, BigInt, Date].includes(type as never) ||
    PRIMITIVE_KINDS.has(type)
  )
    return undefined;
  return type;
}

function enumKind(values: readonly unknown[]): ValueKind | undefined {
  if (values.length && values.every((v) => typeof v === 'string')) return 'string';
  if (values.length && values.every((v) => Number.isInteger(v))) return 'integer';
  if (values.length && values.every((v) => typeof v === 'number')) return 'number';
  return undefined;
}
