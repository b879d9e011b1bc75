/**
 * Tool and prompt definitions whose JSON Schema, validator and listing entry are built on first read,
 * once (issue 38): bootstrap checks, the first list page or call builds. Classes with the lazy parts as
 * prototype getters, frozen: an object literal with getters would be a slow dictionary-mode object,
 * and every list walks every tool's fields.
 */
import type { JsonObject } from '../protocol/jsonrpc';
import type { Prompt, Tool } from '../protocol/listings';
import type { TaskSupport } from '../metadata/options';
import type { DeclaredAsks } from './declared-asks';
import type { HandlerSource, InputValidation, PromptDefinition, ToolDefinition } from './definitions';

type Validate = (args: unknown) => InputValidation;

/** What a handler knows at start-up, and how to build its listing entry and validator (each at most once). */
interface HandlerParts<Descriptor> {
  readonly name: string;
  readonly owner: string;
  readonly source: HandlerSource;
  readonly forms: ReadonlySet<Function>;
  readonly asks?: DeclaredAsks;
  /** Gets the definition it builds for (a tool's entry reuses the definition's built input schema). */
  descriptor(def: unknown): Readonly<Descriptor>;
  validate(): Validate;
}

export interface ToolParts extends HandlerParts<Tool> {
  readonly outputSchema?: Readonly<JsonObject>;
  readonly checkOutput?: (structured: unknown) => string | undefined;
  readonly task?: TaskSupport;
  readonly linkedApp?: string;
  descriptor(def: { readonly inputSchema: Readonly<JsonObject> }): Readonly<Tool>;
  inputSchema(): Readonly<JsonObject>;
}

export type PromptParts = HandlerParts<Prompt>;

/** What tools and prompts share. Each kind freezes itself once its own fields are set. */
abstract class LazyHandlerDefinition<Descriptor> {
  readonly name: string;
  readonly owner: string;
  readonly source: HandlerSource;
  readonly forms: ReadonlySet<Function>;
  readonly asks?: DeclaredAsks;
  readonly #parts: HandlerParts<Descriptor>;
  #descriptor?: Readonly<Descriptor>;
  #validate?: Validate;

  constructor(parts: HandlerParts<Descriptor>) {
    this.name = parts.name;
    this.owner = parts.owner;
    this.source = parts.source;
    this.forms = parts.forms;
    this.asks = parts.asks;
    this.#parts = parts;
  }

  get descriptor(): Readonly<Descriptor> {
    return (this.#descriptor ??= this.#parts.descriptor(this));
  }
  get validate(): Validate {
    return (this.#validate ??= this.#parts.validate());
  }
}

export class LazyToolDefinition extends LazyHandlerDefinition<Tool> implements ToolDefinition {
  readonly kind = 'tool';
  readonly outputSchema?: Readonly<JsonObject>;
  readonly checkOutput?: (structured: unknown) => string | undefined;
  readonly task?: TaskSupport;
  readonly linkedApp?: string;
  readonly #parts: ToolParts;
  #inputSchema?: Readonly<JsonObject>;

  constructor(parts: ToolParts) {
    super(parts);
    this.outputSchema = parts.outputSchema;
    this.checkOutput = parts.checkOutput;
    this.task = parts.task;
    this.linkedApp = parts.linkedApp;
    this.#parts = parts;
    Object.freeze(this);
  }

  get inputSchema(): Readonly<JsonObject> {
    return (this.#inputSchema ??= this.#parts.inputSchema());
  }
}

export class LazyPromptDefinition extends LazyHandlerDefinition<Prompt> implements PromptDefinition {
  readonly kind = 'prompt';

  constructor(parts: PromptParts) {
    super(parts);
    Object.freeze(this);
  }
}
