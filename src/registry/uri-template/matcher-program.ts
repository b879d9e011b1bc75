import type { ExpressionPart, TemplatePart } from './template-parts';

/**
 * A tiny regular-expression program (RE2/Pike-VM style) that recognises exactly the URIs
 * a template can produce. Running it never backtracks, so matching is O(URI length × program size).
 * `next` is implicit: every instruction except jump, split and accept continues at the following one.
 */
export type Instruction =
  | { readonly kind: 'char'; readonly char: string }
  /** Any one character that is not in `stops`. */
  | { readonly kind: 'valueChar'; readonly stops: string }
  /** Continue at `preferred` and, with lower priority, at `alternative`. */
  | { readonly kind: 'split'; readonly preferred: number; readonly alternative: number }
  | { readonly kind: 'jump'; readonly target: number }
  /** Record the current URI position in capture slot `slot`. */
  | { readonly kind: 'save'; readonly slot: number }
  | { readonly kind: 'accept' };

export interface MatcherProgram {
  readonly instructions: readonly Instruction[];
  /** Two slots (start, end) per expression, in template order. */
  readonly slotCount: number;
}

/** Compiles the parts so expression number i is captured in slots 2i and 2i+1. */
export function compileMatcherProgram(parts: readonly TemplatePart[]): MatcherProgram {
  const builder = new ProgramBuilder();
  let expressionIndex = 0;
  for (const part of parts) {
    if (part.kind === 'literal') {
      builder.literal(part.text);
      continue;
    }
    builder.emit({ kind: 'save', slot: 2 * expressionIndex });
    if (part.operator.named) emitNamedExpression(builder, part);
    else emitPositionalExpression(builder, part);
    builder.emit({ kind: 'save', slot: 2 * expressionIndex + 1 });
    expressionIndex++;
  }
  builder.emit({ kind: 'accept' });
  return { instructions: builder.instructions, slotCount: 2 * expressionIndex };
}

/**
 * Characters a positional value may not contain. The separator is only a stop when it can
 * actually separate something (several variables or an exploded list), so `{+path}` may hold commas.
 */
export function positionalValueStops({ operator, variables }: ExpressionPart): string {
  const separates = variables.length > 1 || variables.some((variable) => variable.explode);
  return separates && !operator.valueStops.includes(operator.separator)
    ? operator.valueStops + operator.separator
    : operator.valueStops;
}

/**
 * `{x,y}` → x(,y)?   `{/list*}` → (/seg(/seg)*)?   `{+path}` → path
 * Without an explode modifier the number of values is bounded by the variable count, so
 * adjacent expressions like `{/a}{/b}` split deterministically.
 */
function emitPositionalExpression(builder: ProgramBuilder, expression: ExpressionPart): void {
  const { operator, variables } = expression;
  const stops = positionalValueStops(expression);
  // `{var}` and `{+var}` have no leading character, so they must match a non-empty value to mean anything.
  const valueRequired = operator.first === '';
  const emitValue = (): void =>
    valueRequired
      ? builder.oneOrMore(() => builder.valueChar(stops))
      : builder.zeroOrMore(() => builder.valueChar(stops));
  const emitBody = (): void => {
    if (operator.first !== '') builder.literal(operator.first);
    emitValue();
    if (variables.some((variable) => variable.explode)) {
      builder.zeroOrMore(() => {
        builder.literal(operator.separator);
        emitValue();
      });
    } else {
      emitUpTo(builder, variables.length - 1, () => {
        builder.literal(operator.separator);
        emitValue();
      });
    }
  };
  if (valueRequired) emitBody();
  else builder.optional(emitBody);
}

function emitUpTo(builder: ProgramBuilder, count: number, emitOne: () => void): void {
  if (count <= 0) return;
  builder.optional(() => {
    emitOne();
    emitUpTo(builder, count - 1, emitOne);
  });
}

/** `{?x,y}` → (?pair(&pair)*)? where pair = (x|y)(=value)? ; order and presence are free. */
function emitNamedExpression(builder: ProgramBuilder, { operator, variables }: ExpressionPart): void {
  const emitPair = (): void => {
    builder.alternatives(variables.map((variable) => () => builder.literal(variable.name)));
    builder.optional(() => {
      builder.literal('=');
      builder.zeroOrMore(() => builder.valueChar(operator.valueStops));
    });
  };
  builder.optional(() => {
    builder.literal(operator.first);
    emitPair();
    builder.zeroOrMore(() => {
      builder.literal(operator.separator);
      emitPair();
    });
  });
}

/** Thompson-style construction with greedy (consume-first) priorities. */
class ProgramBuilder {
  readonly instructions: Instruction[] = [];

  emit(instruction: Instruction): number {
    this.instructions.push(instruction);
    return this.instructions.length - 1;
  }

  literal(text: string): void {
    // Code units, not code points, because the matcher walks the URI one code unit at a time.
    for (let index = 0; index < text.length; index++) this.emit({ kind: 'char', char: text[index] as string });
  }

  valueChar(stops: string): void {
    this.emit({ kind: 'valueChar', stops });
  }

  optional(emitBody: () => void): void {
    const split = this.placeholder();
    emitBody();
    this.patch(split, { kind: 'split', preferred: split + 1, alternative: this.instructions.length });
  }

  zeroOrMore(emitBody: () => void): void {
    const split = this.placeholder();
    emitBody();
    this.emit({ kind: 'jump', target: split });
    this.patch(split, { kind: 'split', preferred: split + 1, alternative: this.instructions.length });
  }

  oneOrMore(emitBody: () => void): void {
    const start = this.instructions.length;
    emitBody();
    this.emit({ kind: 'split', preferred: start, alternative: this.instructions.length + 1 });
  }

  /** Tries each branch in order; every branch ends by jumping past the others. */
  alternatives(branches: ReadonlyArray<() => void>): void {
    const exitJumps: number[] = [];
    branches.forEach((emitBranch, index) => {
      const isLast = index === branches.length - 1;
      const split = isLast ? -1 : this.placeholder();
      emitBranch();
      if (!isLast) {
        exitJumps.push(this.placeholder());
        this.patch(split, { kind: 'split', preferred: split + 1, alternative: this.instructions.length });
      }
    });
    for (const jump of exitJumps) this.patch(jump, { kind: 'jump', target: this.instructions.length });
  }

  private placeholder(): number {
    return this.emit({ kind: 'jump', target: -1 });
  }

  private patch(index: number, instruction: Instruction): void {
    this.instructions[index] = instruction;
  }
}
