import { positionalValueStops } from './matcher-program';
import { decodeValue } from './percent-encoding';
import type { ExpressionPart, VariableSpec } from './template-parts';

export type MatchedValue = string | string[];
export type MatchedVariables = Record<string, MatchedValue>;

/**
 * Turns the URI text one expression matched into variable values (percent-decoded).
 * Returns false when the text is well-formed for the matcher but still unacceptable:
 * invalid percent-encoding, a value longer than its `:n` prefix, or a non-exploded query name given twice.
 */
export function readExpressionValues(expression: ExpressionPart, span: string, into: MatchedVariables): boolean {
  if (span === '') return true; // every variable undefined
  const body = span.slice(expression.operator.first.length);
  return expression.operator.named
    ? readNamedValues(expression, body, into)
    : readPositionalValues(expression, body, into);
}

function readPositionalValues(expression: ExpressionPart, body: string, into: MatchedVariables): boolean {
  const { operator, variables } = expression;
  const separates = positionalValueStops(expression).includes(operator.separator);
  const segments = separates ? body.split(operator.separator) : [body];
  for (const [variable, variableSegments] of assignSegments(variables, segments)) {
    const decoded = decodeAll(variableSegments);
    if (decoded === undefined || !fitsPrefix(variable, decoded)) return false;
    setOwn(into, variable.name, variable.explode ? decoded : (decoded[0] as string));
  }
  return true;
}

/**
 * Values are assigned left to right (an undefined variable can only be a trailing one),
 * except that the first exploded variable takes every segment not needed by the variables after it.
 */
function assignSegments(
  variables: readonly VariableSpec[],
  segments: readonly string[],
): Array<[VariableSpec, string[]]> {
  const explodedIndex = variables.findIndex((variable) => variable.explode);
  const assignments: Array<[VariableSpec, string[]]> = [];
  if (explodedIndex < 0 || segments.length <= explodedIndex) {
    segments.forEach((segment, index) => {
      const variable = variables[index];
      if (variable) assignments.push([variable, [segment]]);
    });
    return assignments;
  }
  const trailingVariables = variables.slice(explodedIndex + 1);
  const remaining = segments.length - explodedIndex;
  const trailingCount = Math.min(trailingVariables.length, remaining - 1);
  const explodedEnd = segments.length - trailingCount;
  variables
    .slice(0, explodedIndex)
    .forEach((variable, index) => assignments.push([variable, [segments[index] as string]]));
  assignments.push([variables[explodedIndex] as VariableSpec, segments.slice(explodedIndex, explodedEnd)]);
  trailingVariables
    .slice(0, trailingCount)
    .forEach((variable, index) => assignments.push([variable, [segments[explodedEnd + index] as string]]));
  return assignments;
}

/** `name=value` pairs in any order; an exploded name may repeat and collects a list. */
function readNamedValues({ operator, variables }: ExpressionPart, body: string, into: MatchedVariables): boolean {
  const variablesByName = new Map(variables.map((variable) => [variable.name, variable]));
  for (const pair of body.split(operator.separator)) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    const value = decodeValue(equals < 0 ? '' : pair.slice(equals + 1));
    const variable = variablesByName.get(name);
    if (variable === undefined || value === undefined || !fitsPrefix(variable, [value])) return false;
    const existing = Object.prototype.hasOwnProperty.call(into, name) ? into[name] : undefined;
    if (!variable.explode) {
      if (existing !== undefined) return false;
      setOwn(into, name, value);
    } else if (Array.isArray(existing)) {
      existing.push(value);
    } else {
      setOwn(into, name, [value]);
    }
  }
  return true;
}

function decodeAll(segments: readonly string[]): string[] | undefined {
  const decoded: string[] = [];
  for (const segment of segments) {
    const value = decodeValue(segment);
    if (value === undefined) return undefined;
    decoded.push(value);
  }
  return decoded;
}

function fitsPrefix(variable: VariableSpec, values: readonly string[]): boolean {
  const { maxLength } = variable;
  return maxLength === undefined || values.every((value) => Array.from(value).length <= maxLength);
}

/** defineProperty so a variable legitimately named `__proto__` is stored, not swallowed by the setter. */
function setOwn(target: MatchedVariables, name: string, value: MatchedValue): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}
