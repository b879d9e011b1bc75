/**
 * What a tool keeps from bootstrap to build its wire schema, listing entry and validator on first use
 * (issue 38): one object per tool holding what was checked, with the builders as methods, instead of a
 * closure (and its context) per builder per tool. Thousands of tools are kept by every app that has them.
 */
import type { TaskSupport, ToolOptions } from '../metadata/options';
import type { JsonObject } from '../protocol/jsonrpc';
import type { Tool } from '../protocol/listings';
import { ASKS_META_KEY, type DeclaredAsks, withFallbackArgument, withoutFallbackArgument } from './declared-asks';
import type { HandlerSource, InputValidation } from './definitions';
import { type CheckedInput, forOwner } from './handler-input';
import type { ToolParts } from './lazy-definitions';
import { deepFreeze, withoutUndefined } from './objects';

export class ToolRecipe implements ToolParts {
  constructor(
    readonly name: string,
    readonly owner: string,
    readonly source: HandlerSource,
    private readonly options: ToolOptions,
    private readonly input: CheckedInput,
    readonly asks: DeclaredAsks | undefined,
    private readonly shownAsks: JsonObject | undefined,
    private readonly meta: JsonObject | undefined,
    readonly forms: ReadonlySet<Function>,
    readonly outputSchema: Readonly<JsonObject> | undefined,
    readonly checkOutput: ((structured: unknown) => string | undefined) | undefined,
    readonly linkedApp: string | undefined,
  ) {}

  get task(): TaskSupport | undefined {
    return this.options.task;
  }

  /** Frozen: a first call may read it before any list builds the (deep-frozen) descriptor. */
  inputSchema(): Readonly<JsonObject> {
    return deepFreeze(forOwner(this.owner, () => withFallbackArgument(this.input.schema(), this.asks)));
  }

  descriptor(def: { readonly inputSchema: Readonly<JsonObject> }): Readonly<Tool> {
    const { options, meta, shownAsks } = this;
    return deepFreeze(
      withoutUndefined({
        name: this.name,
        title: options.title,
        description: options.description ?? '',
        inputSchema: def.inputSchema,
        outputSchema: this.outputSchema,
        annotations: options.annotations,
        icons: options.icons,
        _meta: shownAsks ? { ...meta, [ASKS_META_KEY]: shownAsks } : meta,
      }),
    ) as Readonly<Tool>;
  }

  validate(): (args: unknown) => InputValidation {
    const check = forOwner(this.owner, () => this.input.validator());
    const asks = this.asks;
    // The fallback's own argument is the framework's: the DTO never sees it.
    return asks?.fallback ? (args: unknown) => check(withoutFallbackArgument(args, asks)) : check;
  }
}
