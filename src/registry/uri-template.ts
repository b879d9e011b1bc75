import { expandTemplate, type ExpansionVariables } from './uri-template/expand-template';
import { compileMatcherProgram, type MatcherProgram } from './uri-template/matcher-program';
import { parseTemplate } from './uri-template/parse-template';
import { readExpressionValues, type MatchedVariables } from './uri-template/read-expression-values';
import { runMatcher } from './uri-template/run-matcher';
import type { ExpressionPart, TemplatePart } from './uri-template/template-parts';

export type { ExpansionValue, ExpansionVariables } from './uri-template/expand-template';
export type { MatchedValue, MatchedVariables } from './uri-template/read-expression-values';

/**
 * An RFC 6570 URI template (levels 1–4, without associative-array values) for MCP resource templates.
 *
 * - Construction refuses malformed templates with FrameworkError('OMC_INVALID_URI_TEMPLATE'):
 *   unclosed or stray braces, empty expressions, invalid names, reserved operators (`= , ! @ |`),
 *   bad prefix lengths, and a variable used twice. Prefix (`{var:3}`) and explode (`{list*}`) modifiers are allowed.
 * - match() never backtracks: it runs a compiled automaton over the URI in O(URI length × template size).
 *   Text outside expressions must match exactly. Values never cross these characters:
 *   `{var}` / ? # & , (and is non-empty) · `{+var}` ? # (non-empty) · `{#var}` # · `{.var}` . / ? # ·
 *   `{/var}` / ? # · `{;var}` ; / ? # · `{?var}` `{&var}` & # — plus the separator when an
 *   expression has several variables or an explode. Named expressions (`; ? &`) accept their
 *   names in any order, each optional, but refuse unknown names and a non-exploded name given twice.
 *   When a split is ambiguous the earlier expression takes the longest value (`{+path}/x` on `/a/x/b/x` gives
  * `/a/x/b`).
 */
export class UriTemplate {
  readonly template: string;
  readonly variableNames: readonly string[];
  private readonly parts: readonly TemplatePart[];
  private readonly expressions: readonly ExpressionPart[];
  private readonly program: MatcherProgram;

  constructor(template: string) {
    this.template = template;
    this.parts = parseTemplate(template);
    this.expressions = this.parts.filter((part): part is ExpressionPart => part.kind === 'expression');
    this.variableNames = Object.freeze(
      this.expressions.flatMap((expression) => expression.variables.map((variable) => variable.name)),
    );
    this.program = compileMatcherProgram(this.parts);
  }

  /** True when the string contains at least one `{...}` expression (it is not validated). */
  static isTemplate(candidate: string): boolean {
    let open = -1;
    for (let index = 0; index < candidate.length; index++) {
      const char = candidate[index];
      if (char === '{') open = index;
      else if (char === '}' && open >= 0 && index > open + 1) return true;
      else if (char === '}') open = -1;
    }
    return false;
  }

  /**
   * The variables of a URI this template could have produced, percent-decoded, or undefined.
   * Exploded variables come back as string[]; variables absent from the URI are absent from the result.
   */
  match(uri: string): MatchedVariables | undefined {
    const { slots } = runMatcher(this.program, uri);
    if (slots === undefined) return undefined;
    const variables: MatchedVariables = {};
    const complete = this.expressions.every((expression, index) =>
      readExpressionValues(expression, uri.slice(slots[2 * index], slots[2 * index + 1]), variables),
    );
    return complete ? variables : undefined;
  }

  /** RFC 6570 expansion; numbers and booleans are stringified, undefined and empty lists are omitted. */
  expand(variables: ExpansionVariables): string {
    return expandTemplate(this.template, this.parts, variables);
  }

  toString(): string {
    return this.template;
  }
}
