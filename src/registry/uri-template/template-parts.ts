import type { ExpressionOperator } from './operators';

/** A parsed template is a sequence of literal text and `{...}` expressions. */
export type TemplatePart = LiteralPart | ExpressionPart;

export interface LiteralPart {
  readonly kind: 'literal';
  readonly text: string;
}

export interface ExpressionPart {
  readonly kind: 'expression';
  readonly operator: ExpressionOperator;
  readonly variables: readonly VariableSpec[];
}

export interface VariableSpec {
  readonly name: string;
  /** The `*` modifier: a list is spread over several separated values. */
  readonly explode: boolean;
  /** The `:n` prefix modifier: at most n characters of the value. */
  readonly maxLength: number | undefined;
}
