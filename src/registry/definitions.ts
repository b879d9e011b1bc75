/**
 * Frozen definitions the dispatcher serves, checked at bootstrap (or on run-time add). A decorated tool's or
 * prompt's schema, validator and listing entry are getters that build on first read, once (issue 38).
 */
import type { CompletionReference } from '../protocol/completion';
import type { JsonObject } from '../protocol/jsonrpc';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/listings';
import type { CacheHints, TaskSupport } from '../metadata/options';
import type { Skill } from '../protocol/skills';
import type { DirectoryChild } from '../skills/skill-set';
import type { PipelineRefs } from '../metadata/pipeline';
import type { UriTemplate } from './uri-template';
import type { DeclaredAsks } from './declared-asks';

export type InputValidation = { ok: true; value: unknown } | { ok: false; errors: string[] };

/**
 * Where the code of a definition lives: a method of a provider class, or a plain function. A function
 * that a decorated class publishes (a `@Skills` file, a tool's app) names that class in `cls`, and
 * the tool's method in `method`: their guards, interceptors and filters apply to it.
 */
export type HandlerSource =
  | { kind: 'method'; cls: Function; method: string; paramTypes: readonly Function[] }
  | {
    kind: 'function';
    fn: (input: unknown, ctx: never) => unknown;
    cls?: Function;
    method?: string;
    /** Guards, interceptors and filters of this definition alone (a mount's), after the app-wide ones. */
    pipeline?: PipelineRefs;
  };

/** Told when a caller subscribes to a URI it serves (a mount forwards it upstream); returns the release. */
export type WatchResource = (uri: string) => () => void;

interface Common<Entry extends JsonObject> {
  /** `Class.method` (or `name` for run-time registrations): for error messages. */
  readonly owner: string;
  readonly source: HandlerSource;
  /** The listing entry as sent on the wire (modern shape; legacy is down-converted). */
  readonly descriptor: Readonly<Entry>;
  /** The forms the handler declared for `ctx.elicit`, each checked at bootstrap. */
  readonly forms: ReadonlySet<Function>;
  /** What the handler declared it may ask, and its fallback; undefined: nothing declared. */
  readonly asks?: DeclaredAsks;
}

export interface ToolDefinition extends Common<Tool> {
  readonly kind: 'tool';
  readonly name: string;
  readonly inputSchema: Readonly<JsonObject>;
  readonly outputSchema?: Readonly<JsonObject>;
  /** With an outputSchema: what is wrong with a structuredContent value (undefined: it conforms). */
  readonly checkOutput?: (structured: unknown) => string | undefined;
  readonly validate: (args: unknown) => InputValidation;
  /** Whether it may (or must) run as a task; undefined: never. */
  readonly task?: TaskSupport;
  /** The `ui://` resource its `_meta.ui` links (checked at start-up without building the descriptor). */
  readonly linkedApp?: string;
}

export interface PromptDefinition extends Common<Prompt> {
  readonly kind: 'prompt';
  readonly name: string;
  readonly validate: (args: unknown) => InputValidation;
}

export interface ResourceDefinition extends Common<Resource> {
  readonly kind: 'resource';
  readonly uri: string;
  readonly watch?: WatchResource;
  readonly mimeType?: string;
  readonly cache?: CacheHints;
}

export interface ResourceTemplateDefinition extends Common<ResourceTemplate> {
  readonly kind: 'resourceTemplate';
  readonly uriTemplate: string;
  readonly watch?: WatchResource;
  readonly template: UriTemplate;
  readonly mimeType?: string;
  readonly cache?: CacheHints;
}

/** A skill (SEP-2640): its entry as `skills/list` sends it; its files are resource definitions. */
export interface SkillDefinition {
  readonly kind: 'skill';
  /** URI of its SKILL.md. */
  readonly uri: string;
  /** Its root directory URI. */
  readonly root: string;
  readonly name: string;
  readonly entry: Readonly<Skill>;
  readonly owner: string;
  /** Whose guards decide who sees it (the SKILL.md's resource source). */
  readonly source: HandlerSource;
}

/** A directory resource of a skills folder (`inode/directory`), read by `resources/directory/read`. */
export interface DirectoryDefinition {
  readonly kind: 'directory';
  readonly uri: string;
  readonly children: readonly Readonly<DirectoryChild>[];
  readonly owner: string;
  readonly source: HandlerSource;
}

export interface CompletionDefinition {
  readonly kind: 'completion';
  readonly ref: CompletionReference;
  readonly argument: string;
  readonly owner: string;
  readonly source: HandlerSource;
}

export type Definition =
  | ToolDefinition
  | PromptDefinition
  | ResourceDefinition
  | ResourceTemplateDefinition
  | CompletionDefinition;

/** Marks the Context class so lower layers can recognise it in `design:paramtypes` without importing it. */
export const CONTEXT_MARKER = Symbol.for('onemodelcontext:context-class');

export function isContextType(t: unknown): boolean {
  return typeof t === 'function' && (t as unknown as Record<symbol, unknown>)[CONTEXT_MARKER] === true;
}
