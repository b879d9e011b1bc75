import { FrameworkError } from '../../errors/framework-error';
import { isHexDigit } from './percent-encoding';
import { operatorFor, RESERVED_OPERATOR_SYMBOLS, SIMPLE_OPERATOR, type ExpressionOperator } from './operators';
import type { ExpressionPart, TemplatePart, VariableSpec } from './template-parts';

/** RFC 6570 §2.4.1: a prefix length is 1 to 9999. */
const MAX_PREFIX_LENGTH = 9999;

/**
 * Splits a template into literal and expression parts, refusing anything RFC 6570
 * does not define so a typo fails at start-up rather than silently never matching.
 * Literal text is kept as written (only `{` and `}` are checked).
 */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  const seenNames = new Set<string>();
  let literalStart = 0;
  let index = 0;
  while (index < template.length) {
    const char = template[index];
    if (char === '}') throw invalidTemplate(template, index, "'}' without a matching '{'");
    if (char !== '{') {
      index++;
      continue;
    }
    if (index > literalStart) parts.push({ kind: 'literal', text: template.slice(literalStart, index) });
    const close = findClosingBrace(template, index);
    const expression = parseExpression(template, index + 1, close);
    for (const variable of expression.variables) {
      // A name bound twice would make match() ambiguous, so it is refused outright.
      if (seenNames.has(variable.name)) {
        throw invalidTemplate(template, index, `variable "${variable.name}" appears more than once`);
      }
      seenNames.add(variable.name);
    }
    parts.push(expression);
    index = close + 1;
    literalStart = index;
  }
  if (template.length > literalStart) parts.push({ kind: 'literal', text: template.slice(literalStart) });
  return parts;
}

export function invalidTemplate(template: string, index: number, problem: string): FrameworkError {
  return new FrameworkError(
    'OMC_INVALID_URI_TEMPLATE',
    `Invalid URI template "${template}" at index ${index}: ${problem}`,
  );
}

function findClosingBrace(template: string, open: number): number {
  for (let index = open + 1; index < template.length; index++) {
    const char = template[index];
    if (char === '}') return index;
    if (char === '{') throw invalidTemplate(template, index, "'{' inside an expression (expressions cannot nest)");
  }
  throw invalidTemplate(template, open, "'{' is never closed");
}

function parseExpression(template: string, bodyStart: number, bodyEnd: number): ExpressionPart {
  if (bodyStart === bodyEnd) throw invalidTemplate(template, bodyStart - 1, 'empty expression "{}"');
  const leading = template[bodyStart] ?? '';
  if (RESERVED_OPERATOR_SYMBOLS.includes(leading)) {
    throw invalidTemplate(template, bodyStart, `operator '${leading}' is reserved by RFC 6570 and not supported`);
  }
  const explicitOperator = operatorFor(leading);
  const operator: ExpressionOperator = explicitOperator ?? SIMPLE_OPERATOR;
  const listStart = explicitOperator ? bodyStart + 1 : bodyStart;
  if (listStart === bodyEnd) throw invalidTemplate(template, listStart, `operator '${leading}' has no variables`);

  const variables: VariableSpec[] = [];
  let specStart = listStart;
  for (let index = listStart; index <= bodyEnd; index++) {
    if (index < bodyEnd && template[index] !== ',') continue;
    variables.push(parseVariableSpec(template, specStart, index));
    specStart = index + 1;
  }
  return { kind: 'expression', operator, variables };
}

function parseVariableSpec(template: string, start: number, end: number): VariableSpec {
  if (start === end) throw invalidTemplate(template, start, 'empty variable name');
  let nameEnd = start;
  while (nameEnd < end && template[nameEnd] !== '*' && template[nameEnd] !== ':') nameEnd++;
  const name = template.slice(start, nameEnd);
  const badCharacter = findInvalidNameCharacter(name);
  if (badCharacter !== undefined) {
    throw invalidTemplate(template, start + badCharacter, `invalid variable name "${name}"`);
  }
  if (nameEnd === end) return { name, explode: false, maxLength: undefined };
  if (template[nameEnd] === '*') {
    if (nameEnd + 1 !== end)
      throw invalidTemplate(template, nameEnd + 1, `unexpected text after '*' in "${template.slice(start, end)}"`);
    return { name, explode: true, maxLength: undefined };
  }
  const digits = template.slice(nameEnd + 1, end);
  if (!/^[1-9][0-9]{0,3}$/.test(digits) || Number(digits) > MAX_PREFIX_LENGTH) {
    throw invalidTemplate(
      template,
      nameEnd + 1,
      `prefix length "${digits}" must be an integer from 1 to ${MAX_PREFIX_LENGTH}`,
    );
  }
  return { name, explode: false, maxLength: Number(digits) };
}

/**
 * RFC 6570 varname: varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded. Returns the offset of the
 * first bad character.
 */
function findInvalidNameCharacter(name: string): number | undefined {
  let previousWasDot = true; // a name may not start with '.'
  for (let offset = 0; offset < name.length; offset++) {
    const char = name[offset] ?? '';
    if (char === '.') {
      if (previousWasDot) return offset;
      previousWasDot = true;
    } else if (char === '%') {
      if (!isHexDigit(name[offset + 1]) || !isHexDigit(name[offset + 2])) return offset;
      offset += 2;
      previousWasDot = false;
    } else if (/^[A-Za-z0-9_]$/.test(char)) {
      previousWasDot = false;
    } else {
      return offset;
    }
  }
  return previousWasDot ? Math.max(name.length - 1, 0) : undefined;
}
