/** What each decorator records. Plain data only; bootstrap turns it into definitions. */
import type { AppCsp, AppPermissions, AppToolVisibility } from '../protocol/apps';
import type { JsonObject } from '../protocol/jsonrpc';
import type { Annotations, Icon, ToolAnnotations } from '../protocol/types';

/** A class-validator DTO class or a raw JSON Schema object (escape hatch). */
export type SchemaSource = Function | JsonObject;

/** 2026-07-28 cache hints for list/read results. */
export interface CacheHints {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** What a handler that asks declares, so bootstrap can check it (DESIGN D6). */
export interface AskingOptions {
  /**
   * Every DTO class the handler passes to `ctx.elicit`: each is checked against the elicitation
   * form subset at start-up. A form used without being declared is checked on first use and
   * logged (or refused, with `undeclaredForms: 'refuse'`); the test kit fails the call.
   */
  forms?: Function[];
  /**
   * What the handler may ask and what happens when no person sees the question (a host without
   * the capability, one that never renders it, one that declines at once). Checked at start-up,
   * shown to clients in the tool's `_meta`. See docs/context-and-asks.md.
   */
  asks?: AskDeclaration;
}

/** The asks a handler may make: `ctx.confirm`, `ctx.elicit`, `ctx.elicitUrl`, `ctx.sample`, `ctx.listRoots`. */
export type AskDeclaredKind = 'confirm' | 'elicit' | 'elicitUrl' | 'sample' | 'roots';
/** `none` · `deny` · `approvalPage` (tools) · `argument` (tools; `ctx.confirm` only). */
export type DeclaredFallback = 'none' | 'deny' | 'approvalPage' | 'argument';

export interface AskDeclaration {
  kinds: AskDeclaredKind[];
  /** Defaults to the app-wide `asks.fallback` option. */
  fallback?: DeclaredFallback;
}

export interface ToolOptions extends AskingOptions {
  /** Defaults to the method name. 1–128 of [A-Za-z0-9_.-]. */
  name?: string;
  title?: string;
  description?: string;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /** Arguments DTO or raw schema; defaults to the method's first parameter type when it is a DTO. */
  input?: SchemaSource;
  /** Output DTO or raw schema; results then carry `structuredContent`. */
  output?: SchemaSource;
  /**
   * Whether the tool may run as a task (SEP-2663, 2026-07-28 clients that declare the tasks
   * extension): `'optional'` — a call that does not finish (or ask) within `taskAfterMs` becomes a
   * task; `'required'` — the same, and a client without the extension is refused (-32021).
   * Absent: never a task. Legacy revisions always run it synchronously.
   */
  task?: TaskSupport;
  /** An MCP App: the UI the host renders for this tool, served as a `ui://` resource. */
  ui?: ToolUiOptions;
  _meta?: JsonObject;
}

/**
 * `@Tool({ ui })`. With `html` or `file`, the tool publishes the app at `uri` (default
 * `ui://<tool name>/app.html`); with only `uri`, it links the app another tool publishes (an
 * app-only helper the app calls back into).
 */
export interface ToolUiOptions {
  /** The app's HTML. */
  html?: string;
  /** A file holding the app's HTML, read once at start-up (relative paths resolve against the working directory). */
  file?: string;
  uri?: string;
  /** Who may call the tool: `['app']` keeps it from the model (hosts leave it out of the model's tool list). */
  visibility?: AppToolVisibility[];
  csp?: AppCsp;
  permissions?: AppPermissions;
  /** A dedicated sandbox origin (host-specific format). */
  domain?: string;
  prefersBorder?: boolean;
  /** The resource's title and description (default: the tool's). */
  title?: string;
  description?: string;
}

/** How a tool relates to tasks (the vocabulary of 2025-11-25's `execution.taskSupport`, minus the default). */
export type TaskSupport = 'optional' | 'required';

export interface PromptOptions extends AskingOptions {
  name?: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  /** Arguments DTO; defaults to the method's first parameter type when it is a DTO. */
  args?: Function;
  _meta?: JsonObject;
}

export interface ResourceOptions extends AskingOptions {
  uri: string;
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  cache?: CacheHints;
  _meta?: JsonObject;
}

export interface ResourceTemplateOptions extends AskingOptions {
  uriTemplate: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  cache?: CacheHints;
  _meta?: JsonObject;
}

/** `@Skills`: a folder of Agent Skills published over MCP (SEP-2640). */
export interface SkillsOptions {
  /** A folder of skill folders, each holding a SKILL.md (relative paths resolve against the working directory). */
  directory: string;
  /** An organising prefix for every skill URI: `acme/billing` → `skill://acme/billing/<name>/SKILL.md`. */
  prefix?: string;
  /** Largest file served, in bytes (default 4 MiB); a bigger one fails start-up. */
  maxFileBytes?: number;
  /** Most files read from the folder (default 4096); more fails start-up. */
  maxFiles?: number;
  /** Most bytes read from the folder in all (default 64 MiB; it is held in memory); more fails start-up. */
  maxBytes?: number;
  /** Cache hints of the skill files' reads (2026-07-28). */
  cache?: CacheHints;
}

/** What a completion method completes: a prompt argument or a resource-template variable. */
export type CompletionTarget = { prompt: string; argument: string } | { resourceTemplate: string; argument: string };

export interface MethodEntry<O> {
  method: string;
  options: O;
}
