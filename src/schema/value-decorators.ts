/**
 * What one class-validator decorator says about a value: its kind, its bounds, its format, its
 * allowed values. Array-level decorators (`@ArrayMinSize`…) are read by the property reader.
 */
import { NARROWING_ONLY, NUMBER_VALIDATORS, STRING_FORMATS, type ValueKind } from './validator-vocabulary';

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

/** Where a decorator's reading goes: the facts, and the reader's kind and flags. */
export interface ValueSink {
  readonly value: ValueFacts;
  setKind(kind: ValueKind, because: string): void;
  markNotEmpty(): void;
  markUnknown(decorator: string): void;
}

export function interpretValueDecorator(decorator: string, constraints: readonly unknown[], sink: ValueSink): void {
  const at = '@' + decorator; // capitalised only if a message needs it (property-facts.ts)
  if (decorator in STRING_FORMATS) {
    sink.setKind('string', at);
    readStringDecorator(decorator, constraints, sink.value);
  } else if (NUMBER_VALIDATORS.has(decorator)) {
    sink.setKind('number', at);
    readNumberDecorator(decorator, Number(constraints[0]), sink.value);
  } else {
    readOtherDecorator(decorator, constraints, sink, at);
  }
}

function readStringDecorator(decorator: string, constraints: readonly unknown[], value: ValueFacts): void {
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
}

function readNumberDecorator(decorator: string, bound: number, value: ValueFacts): void {
  if (decorator === 'min') value.minimum = bound;
  if (decorator === 'max') value.maximum = bound;
  if (decorator === 'isPositive') value.exclusiveMinimum = 0;
  if (decorator === 'isNegative') value.exclusiveMaximum = 0;
  if (decorator === 'isDivisibleBy') value.multipleOf = bound;
}

function readOtherDecorator(decorator: string, constraints: readonly unknown[], sink: ValueSink, at: string): void {
  const { value } = sink;
  switch (decorator) {
    case 'isInt':
      return sink.setKind('integer', at);
    case 'isNumber':
      return sink.setKind('number', at);
    case 'isBoolean':
      return sink.setKind('boolean', at);
    case 'isObject':
      return sink.setKind('object', at);
    case 'isNotEmptyObject':
      sink.setKind('object', at);
      value.minProperties = 1;
      return;
    case 'isDate':
      sink.setKind('string', at);
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
      return sink.markNotEmpty();
    default:
      if (!NARROWING_ONLY.has(decorator)) sink.markUnknown(decorator);
  }
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

export function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
