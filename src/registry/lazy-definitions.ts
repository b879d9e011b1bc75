/**
 * Tool and prompt definitions whose JSON Schema, validator and listing entry are built on first read,
 * once (issue 38): bootstrap checks, the first list page or call builds. Classes with the lazy parts as
 * prototype getters, frozen: an object literal with getters would be a slow dictionary-mode object,
 * and every list walks every tool's fields. A tool is one object from bootstrap on: it keeps what was
 * checked and builds from it (no closure, and no second object, per tool: apps keep thousands).
 */
import type { JsonObject } from '../protocol/jsonrpc';
import type { Prompt, Tool } from '../protocol/listings';
import type { TaskSupport, ToolOptions } from '../metadata/options';
import { ASKS_META_KEY, type DeclaredAsks, withFallbackArgument, withoutFallbackArgument } from './declared-asks';
import type { HandlerSource, InputValidation, PromptDefinition, ToolDefinition } from './definitions';
import { type CheckedInput, forOwner } from './handler-input';
import { deepFreeze, withoutUndefined } from './objects';

type Validate = (args: unknown) => InputValidation;

/** What a prompt knows at start-up, and how to build its listing entry and validator (each at most once). */
export interface PromptParts {
  readonly name: string;
  readonly owner: string;
  readonly source: HandlerSource;
  readonly forms: ReadonlySet<Function>;
  readonly asks?: DeclaredAsks;
  descriptor(): Readonly<Prompt>;
  validate(): Validate;
}

/** What tools and prompts share. Each kind freezes itself once its own fields are set. */
abstract class LazyHandlerDefinition<Descriptor> {
  #descriptor?: Readonly<Descriptor>;
  #validate?: Validate;

  constructor(
    readonly name: string,
    readonly owner: string,
    readonly source: HandlerSource,
    readonly forms: ReadonlySet<Function>,
    readonly asks: DeclaredAsks | undefined,
  ) {}

  get descriptor(): Readonly<Descriptor> {
    return (this.#descriptor ??= this.buildDescriptor());
  }
  get validate(): Validate {
    return (this.#validate ??= this.buildValidate());
  }

  protected abstract buildDescriptor(): Readonly<Descriptor>;
  protected abstract buildValidate(): Validate;
}

export class LazyToolDefinition extends LazyHandlerDefinition<Tool> implements ToolDefinition {
  readonly kind = 'tool';
  readonly outputSchema?: Readonly<JsonObject>;
  readonly checkOutput?: (structured: unknown) => string | undefined;
  readonly task?: TaskSupport;
  readonly linkedApp?: string;
  readonly #options: ToolOptions;
  readonly #input: CheckedInput;
  readonly #shownAsks: JsonObject | undefined;
  readonly #meta: JsonObject | undefined;
  #inputSchema?: Readonly<JsonObject>;

  constructor(
    name: string,
    owner: string,
    source: HandlerSource,
    options: ToolOptions,
    input: CheckedInput,
    asks: DeclaredAsks | undefined,
    shownAsks: JsonObject | undefined,
    meta: JsonObject | undefined,
    forms: ReadonlySet<Function>,
    outputSchema: Readonly<JsonObject> | undefined,
    checkOutput: ((structured: unknown) => string | undefined) | undefined,
    linkedApp: string | undefined,
  ) {
    super(name, owner, source, forms, asks);
    this.outputSchema = outputSchema;
    this.checkOutput = checkOutput;
    this.task = options.task;
    this.linkedApp = linkedApp;
    this.#options = options;
    this.#input = input;
    this.#shownAsks = shownAsks;
    this.#meta = meta;
    Object.freeze(this);
  }

  /** Frozen: a first call may read it before any list builds the (deep-frozen) descriptor. */
  get inputSchema(): Readonly<JsonObject> {
    return (this.#inputSchema ??= deepFreeze(
      forOwner(this.owner, () => withFallbackArgument(this.#input.schema(), this.asks)),
    ));
  }

  protected buildDescriptor(): Readonly<Tool> {
    const options = this.#options;
    const meta = this.#meta;
    const shownAsks = this.#shownAsks;
    return deepFreeze(
      withoutUndefined({
        name: this.name,
        title: options.title,
        description: options.description ?? '',
        inputSchema: this.inputSchema,
        outputSchema: this.outputSchema,
        annotations: options.annotations,
        icons: options.icons,
        _meta: shownAsks ? { ...meta, [ASKS_META_KEY]: shownAsks } : meta,
      }),
    ) as Readonly<Tool>;
  }

  protected buildValidate(): Validate {
    const input = this.#input;
    const check = forOwner(this.owner, () => input.validator());
    const asks = this.asks;
    // The fallback's own argument is the framework's: the DTO never sees it.
    return asks?.fallback ? (args: unknown) => check(withoutFallbackArgument(args, asks)) : check;
  }
}

export class LazyPromptDefinition extends LazyHandlerDefinition<Prompt> implements PromptDefinition {
  readonly kind = 'prompt';
  readonly #parts: PromptParts;

  constructor(parts: PromptParts) {
    super(parts.name, parts.owner, parts.source, parts.forms, parts.asks);
    this.#parts = parts;
    Object.freeze(this);
  }

  protected buildDescriptor(): Readonly<Prompt> {
    return this.#parts.descriptor();
  }
  protected buildValidate(): Validate {
    return this.#parts.validate();
  }
}
