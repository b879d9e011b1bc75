import { FrameworkError } from '../../errors/framework-error';
import { encodeValue } from './percent-encoding';
import type { ExpressionPart, TemplatePart, VariableSpec } from './template-parts';

export type ExpansionValue = string | number | boolean | readonly string[] | undefined;
export type ExpansionVariables = Readonly<Record<string, ExpansionValue>>;

/** RFC 6570 expansion (Appendix A algorithm); associative-array values are not supported. */
export function expandTemplate(
  template: string,
  parts: readonly TemplatePart[],
  variables: ExpansionVariables,
): string {
  let uri = '';
  for (const part of parts) {
    uri += part.kind === 'literal' ? part.text : expandExpression(template, part, variables);
  }
  return uri;
}

function expandExpression(template: string, expression: ExpressionPart, variables: ExpansionVariables): string {
  const { operator } = expression;
  const pieces: string[] = [];
  for (const variable of expression.variables) {
    const value = definedValue(variables, variable.name);
    if (value === undefined) continue;
    pieces.push(
      typeof value === 'string'
        ? expandScalar(variable, value, expression)
        : expandList(template, variable, value, expression),
    );
  }
  return pieces.length === 0 ? '' : operator.first + pieces.join(operator.separator);
}

/** Undefined for a missing variable, and for an empty list (RFC 6570 §2.3 treats both as undefined). */
function definedValue(variables: ExpansionVariables, name: string): string | readonly string[] | undefined {
  if (!Object.prototype.hasOwnProperty.call(variables, name)) return undefined;
  const value = variables[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : (value as readonly string[]);
  return String(value);
}

function expandScalar(variable: VariableSpec, value: string, { operator }: ExpressionPart): string {
  const prefix = variable.maxLength === undefined ? value : Array.from(value).slice(0, variable.maxLength).join('');
  const encoded = encodeValue(prefix, operator.allowReserved);
  if (!operator.named) return encoded;
  return encoded === '' ? variable.name + operator.ifEmpty : `${variable.name}=${encoded}`;
}

function expandList(
  template: string,
  variable: VariableSpec,
  items: readonly string[],
  { operator }: ExpressionPart,
): string {
  if (variable.maxLength !== undefined) {
    // RFC 6570 §2.4.1: a prefix of a composite value is an error, not a silent truncation.
    throw new FrameworkError(
      'OMC_INVALID_URI_TEMPLATE',
      `Cannot expand URI template "${template}": prefix modifier on "${variable.name}" does not apply to a list value`,
    );
  }
  const encodedItems = items.map((item) => encodeValue(String(item), operator.allowReserved));
  if (!variable.explode) {
    const joined = encodedItems.join(',');
    return operator.named ? `${variable.name}=${joined}` : joined;
  }
  if (!operator.named) return encodedItems.join(operator.separator);
  return encodedItems
    .map((item) => (item === '' ? variable.name + operator.ifEmpty : `${variable.name}=${item}`))
    .join(operator.separator);
}
