import { FrameworkError } from '../errors/framework-error';
import { deepFrozenCopy } from './frozen-json';
import type { ElicitationPrimitive, ElicitationSchema } from './json-schema-types';
import { describeDtoProperties, type PropertyFacts, type ValueFacts } from './property-facts';

const FORM_STRING_FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

const formCache = new WeakMap<Function, ElicitationSchema>();

/**
 * The `requestedSchema` for `ctx.elicit(Form)`: the spec's restricted subset (flat object of primitives
 * and enums). Anything a client form cannot render is refused here, at registration, never at run time.
 */
export function dtoToElicitationSchema(dto: Function): ElicitationSchema {
  const cached = formCache.get(dto);
  if (cached) return cached;
  const properties: Record<string, ElicitationPrimitive> = {};
  const required: string[] = [];
  for (const property of describeDtoProperties(dto)) {
    properties[property.name] = formField(dto, property);
    if (!property.optional && !property.defaultValue) required.push(property.name);
  }
  const form: ElicitationSchema = required.length
    ? { type: 'object', properties, required }
    : { type: 'object', properties };
  const frozen = deepFrozenCopy(form);
  formCache.set(dto, frozen);
  return frozen;
}

function formField(dto: Function, property: PropertyFacts): ElicitationPrimitive {
  const refuse = (why: string): never => {
    throw new FrameworkError('OMC_FORM_UNSUPPORTED', `${dto.name}.${property.name}: ${why}`);
  };
  if (property.field.schema)
    refuse('a raw @Field({ schema }) cannot be checked against the form subset; use decorators');
  const { value } = property;
  if (property.array) return multiSelect(property, value, refuse);
  if (value.enumValues) {
    const options = singleSelect(property, stringValues(value.enumValues, refuse));
    return annotated(property, { type: 'string', ...options }, refuse);
  }
  switch (value.kind) {
    case 'string':
      if (value.pattern !== undefined)
        refuse('a form field cannot carry a pattern (@Matches); clients would not show it');
      if (value.format !== undefined && !FORM_STRING_FORMATS.has(value.format)) {
        refuse(`format "${value.format}" is not allowed in a form (only email, uri, date, date-time)`);
      }
      return annotated(property, { type: 'string', ...pick(value, ['minLength', 'maxLength', 'format']) }, refuse);
    case 'number':
    case 'integer':
      if (
        value.exclusiveMinimum !== undefined ||
        value.exclusiveMaximum !== undefined ||
        value.multipleOf !== undefined
      ) {
        refuse(
          'a form number takes only minimum/maximum: use @Min/@Max instead of @IsPositive/@IsNegative/@IsDivisibleBy',
        );
      }
      return annotated(property, { type: value.kind, ...pick(value, ['minimum', 'maximum']) }, refuse);
    case 'boolean':
      return annotated(property, { type: 'boolean' }, refuse);
    default:
      return refuse(
        value.kind === 'dto' || value.kind === 'object'
          ? 'a form is flat: nested objects are not allowed; move the fields up or ask twice'
          : 'a form field must be a string, number, integer, boolean or enum',
      );
  }
}

function multiSelect(property: PropertyFacts, value: ValueFacts, refuse: (why: string) => never): ElicitationPrimitive {
  if (!value.enumValues)
    refuse(
      'a form array must be a multi-select: items need @IsIn([...], { each: true }) or @IsEnum(E, { each: true })',
    );
  const values = stringValues(value.enumValues ?? [], refuse);
  const titles = property.field.enumTitles;
  const items =
    titles && !property.field.legacyEnumNames
      ? { anyOf: values.map((v) => ({ const: v, title: titles[v] ?? v })) }
      : { type: 'string' as const, enum: values };
  const sizes = pick(property.array ?? {}, ['minItems', 'maxItems']);
  return annotated(property, { type: 'array', items, ...sizes }, refuse);
}

function singleSelect(property: PropertyFacts, values: string[]): object {
  const titles = property.field.enumTitles;
  if (!titles) return { enum: values };
  const titleOf = (v: string): string => titles[v] ?? v;
  if (property.field.legacyEnumNames) return { enum: values, enumNames: values.map(titleOf) };
  return { oneOf: values.map((v) => ({ const: v, title: titleOf(v) })) };
}

function stringValues(values: readonly unknown[], refuse: (why: string) => never): string[] {
  if (!values.every((v): v is string => typeof v === 'string')) refuse('form enums take string values only');
  return values as string[];
}

/** Same key order as the tool schemas: type, title, description, keywords, default. */
function annotated(
  property: PropertyFacts,
  body: { type: string; [keyword: string]: unknown },
  refuse: (why: string) => never,
): ElicitationPrimitive {
  const { type, ...rest } = body;
  if (property.defaultValue && !defaultFits(property.defaultValue.value, type, property.value.enumValues)) {
    refuse(`the default ${JSON.stringify(property.defaultValue.value)} is not a valid ${type} answer`);
  }
  const field: Record<string, unknown> = { type };
  if (property.field.title !== undefined) field.title = property.field.title;
  if (property.field.description !== undefined) field.description = property.field.description;
  Object.assign(field, rest);
  if (property.defaultValue) field.default = property.defaultValue.value;
  return field as unknown as ElicitationPrimitive;
}

function defaultFits(value: unknown, type: string, options: readonly unknown[] | undefined): boolean {
  const allowed = (v: unknown): boolean => !options || options.includes(v);
  switch (type) {
    case 'array':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && allowed(v));
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === type && allowed(value);
  }
}

function pick<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (object[key] !== undefined) picked[key] = object[key];
  return picked;
}
