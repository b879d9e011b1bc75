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

/** What a tool knows at start-up, and how to build the rest (each builder is called at most once). */
export interface ToolParts {
  readonly name: string;
  readonly owner: string;
  readonly source: HandlerSource;
  readonly outputSchema?: Readonly<JsonObject>;
  readonly checkOutput?: (structured: unknown) => string | undefined;
  readonly task?: TaskSupport;
  readonly forms: ReadonlySet<Function>;
  readonly asks?: DeclaredAsks;
  readonly linkedApp?: string;
  readonly descriptor: () => Readonly<Tool>;
  readonly inputSchema: () => Readonly<JsonObject>;
  readonly validate: () => Validate;
}

export class LazyToolDefinition implements ToolDefinition {
  readonly kind = 'tool';
  readonly name: string;
  readonly owner: string;
  readonly source: HandlerSource;
  readonly outputSchema?: Readonly<JsonObject>;
  readonly checkOutput?: (structured: unknown) => string | undefined;
  readonly task?: TaskSupport;
  readonly forms: ReadonlySet<Function>;
  readonly asks?: DeclaredAsks;
  readonly linkedApp?: string;
  readonly #parts: ToolParts;
  #descriptor?: Readonly<Tool>;
  #inputSchema?: Readonly<JsonObject>;
  #validate?: Validate;

  constructor(parts: ToolParts) {
    this.name = parts.name;
    this.owner = parts.owner;
    this.source = parts.source;
    this.outputSchema = parts.outputSchema;
    this.checkOutput = parts.checkOutput;
    this.task = parts.task;
    this.forms = parts.forms;
    this.asks = parts.asks;
    this.linkedApp = parts.linkedApp;
    this.#parts = parts;
    Object.freeze(this);
  }

  get descriptor(): Readonly<Tool> {
    return (this.#descriptor ??= this.#parts.descriptor());
  }
  get inputSchema(): Readonly<JsonObject> {
    return (this.#inputSchema ??= this.#parts.inputSchema());
  }
  get validate(): Validate {
    return (this.#validate ??= this.#parts.validate());
  }
}

export interface PromptParts {
  readonly name: string;
  readonly owner: string;
  readonly source: HandlerSource;
  readonly forms: ReadonlySet<Function>;
  readonly asks?: DeclaredAsks;
  readonly descriptor: () => Readonly<Prompt>;
  readonly validate: () => Validate;
}

export class LazyPromptDefinition implements PromptDefinition {
  readonly kind = 'prompt';
  readonly name: string;
  readonly owner: string;
  readonly source: HandlerSource;
  readonly forms: ReadonlySet<Function>;
  readonly asks?: DeclaredAsks;
  readonly #parts: PromptParts;
  #descriptor?: Readonly<Prompt>;
  #validate?: Validate;

  constructor(parts: PromptParts) {
    this.name = parts.name;
    this.owner = parts.owner;
    this.source = parts.source;
    this.forms = parts.forms;
    this.asks = parts.asks;
    this.#parts = parts;
    Object.freeze(this);
  }

  get descriptor(): Readonly<Prompt> {
    return (this.#descriptor ??= this.#parts.descriptor());
  }
  get validate(): Validate {
    return (this.#validate ??= this.#parts.validate());
  }
}
