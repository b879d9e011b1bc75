/** How one RFC 6570 expression operator expands (RFC 6570 Appendix A table) and where its values stop when matching. */
export interface ExpressionOperator {
  readonly symbol: OperatorSymbol;
  /** Emitted before the first defined variable. */
  readonly first: string;
  /** Emitted between variables and between exploded list items. */
  readonly separator: string;
  /** Whether each value is written as `name=value`. */
  readonly named: boolean;
  /** Written after the name when a named value is empty (`;x` versus `?x=`). */
  readonly ifEmpty: string;
  /** Whether reserved characters and pct-encoded triplets pass through unencoded. */
  readonly allowReserved: boolean;
  /**
   * Characters a matched value may never contain, so a value cannot swallow the
   * URI structure around it (a path segment never crosses `/`, a query value never crosses `&`).
   */
  readonly valueStops: string;
}

export type OperatorSymbol = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

const operatorsBySymbol: Readonly<Record<OperatorSymbol, ExpressionOperator>> = {
  '': { symbol: '', first: '', separator: ',', named: false, ifEmpty: '', allowReserved: false, valueStops: '/?#&,' },
  '+': { symbol: '+', first: '', separator: ',', named: false, ifEmpty: '', allowReserved: true, valueStops: '?#' },
  '#': { symbol: '#', first: '#', separator: ',', named: false, ifEmpty: '', allowReserved: true, valueStops: '#' },
  '.': { symbol: '.', first: '.', separator: '.', named: false, ifEmpty: '', allowReserved: false, valueStops: './?#' },
  '/': { symbol: '/', first: '/', separator: '/', named: false, ifEmpty: '', allowReserved: false, valueStops: '/?#' },
  ';': { symbol: ';', first: ';', separator: ';', named: true, ifEmpty: '', allowReserved: false, valueStops: ';/?#' },
  '?': { symbol: '?', first: '?', separator: '&', named: true, ifEmpty: '=', allowReserved: false, valueStops: '&#' },
  '&': { symbol: '&', first: '&', separator: '&', named: true, ifEmpty: '=', allowReserved: false, valueStops: '&#' },
};

/** Operators RFC 6570 §2.2 reserves for future use; a template using one is refused. */
export const RESERVED_OPERATOR_SYMBOLS = '=,!@|';

/** The operator of an expression with no operator character, like `{var}`. */
export const SIMPLE_OPERATOR: ExpressionOperator = operatorsBySymbol[''];

/** The operator an expression's first character names, or undefined when that character starts a variable name. */
export function operatorFor(firstCharacter: string): ExpressionOperator | undefined {
  if (firstCharacter === '' || !Object.prototype.hasOwnProperty.call(operatorsBySymbol, firstCharacter))
    return undefined;
  return operatorsBySymbol[firstCharacter as OperatorSymbol];
}
