/**
 * Upstream listings → our definitions, under the mount's namespace: tools and prompts prefixed
 * (`ns_name`), resource URIs given a scheme of their own (`ns+demo://a`). Descriptors keep what the
 * upstream sent (schemas, annotations, outputSchema, icons, `_meta`); arguments are checked by the
 * upstream, which owns their schema (ours only requires an object).
 */
import type { Context } from '../context/context';
import type { JsonObject } from '../protocol/jsonrpc';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/listings';
import type { CompleteRequest, CompleteResult, CompletionReference } from '../protocol/completion';
import type {
  CompletionDefinition,
  InputValidation,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from '../registry/definitions';
import { deepFreeze } from '../registry/objects';
import { UriTemplate } from '../registry/uri-template';
import type { RelayedMethod } from './relay';

export type MountedDefinition = ToolDefinition | PromptDefinition | ResourceDefinition | ResourceTemplateDefinition;
export type Relay = (method: RelayedMethod, params: JsonObject, ctx: Context) => Promise<unknown>;
/** Asks the upstream to complete (its own reference). */
export type Complete = (request: CompleteRequest) => Promise<CompleteResult>;

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Where a mounted template's handler finds the URI it matched (not a possible RFC 6570 variable name). */
const MATCHED_URI = ' uri';

export class NamespaceMap {
  constructor(
    readonly namespace: string,
    private readonly prefix = true,
  ) {}
  name(upstream: string): string {
    return this.prefix ? `${this.namespace}_${upstream}` : upstream;
  }
  uri(upstream: string): string {
    return this.prefix ? `${this.namespace}+${upstream}` : upstream;
  }
  upstreamUri(ours: string): string {
    return this.prefix && ours.startsWith(`${this.namespace}+`) ? ours.slice(this.namespace.length + 1) : ours;
  }
}

function objectArgs(args: unknown): InputValidation {
  if (args === undefined) return { ok: true, value: {} };
  return typeof args === 'object' && args !== null && !Array.isArray(args)
    ? { ok: true, value: args }
    : { ok: false, errors: ['arguments must be an object'] };
}

function stringArgs(args: unknown): InputValidation {
  const checked = objectArgs(args);
  if (!checked.ok) return checked;
  const bad = Object.entries(checked.value as JsonObject).filter(([, v]) => typeof v !== 'string');
  return bad.length ? { ok: false, errors: bad.map(([k]) => `argument ${k} must be a string`) } : checked;
}

/** A tool, or undefined when the upstream's name or schema cannot be served (the reason is reported). */
export function mountTool(ns: NamespaceMap, tool: Tool, relay: Relay, report: (m: string) => void) {
  const name = ns.name(tool.name);
  if (!NAME.test(name)) return void report(`tool ${JSON.stringify(tool.name)} skipped: ${name} is not a valid name`);
  const schema = tool.inputSchema as JsonObject | undefined;
  if (typeof schema !== 'object' || schema === null || schema.type !== 'object') {
    return void report(`tool ${JSON.stringify(tool.name)} skipped: its inputSchema is not an object schema`);
  }
  const upstreamName = tool.name;
  const def: ToolDefinition = {
    kind: 'tool',
    name,
    owner: `mount ${ns.namespace}: tool ${upstreamName}`,
    source: {
      kind: 'function',
      fn: ((input: JsonObject, ctx: Context) =>
        relay('tools/call', { name: upstreamName, arguments: input }, ctx)) as never,
    },
    descriptor: deepFreeze({ ...structuredClone(tool), name }),
    inputSchema: schema,
    outputSchema: tool.outputSchema as JsonObject | undefined,
    validate: objectArgs,
    forms: new Set(),
  };
  return Object.freeze(def);
}

export function mountPrompt(ns: NamespaceMap, prompt: Prompt, relay: Relay, report: (m: string) => void) {
  const name = ns.name(prompt.name);
  if (!NAME.test(name)) return void report(`prompt ${JSON.stringify(prompt.name)} skipped: invalid name`);
  const upstreamName = prompt.name;
  const def: PromptDefinition = {
    kind: 'prompt',
    name,
    owner: `mount ${ns.namespace}: prompt ${upstreamName}`,
    source: {
      kind: 'function',
      fn: ((input: JsonObject, ctx: Context) =>
        relay('prompts/get', { name: upstreamName, arguments: input }, ctx)) as never,
    },
    descriptor: deepFreeze({ ...structuredClone(prompt), name }),
    validate: stringArgs,
    forms: new Set(),
  };
  return Object.freeze(def);
}

export function mountResource(ns: NamespaceMap, resource: Resource, relay: Relay) {
  const uri = ns.uri(resource.uri);
  const def: ResourceDefinition = {
    kind: 'resource',
    uri,
    mimeType: resource.mimeType,
    owner: `mount ${ns.namespace}: resource ${resource.uri}`,
    source: { kind: 'function', fn: ((_: unknown, ctx: Context) => readMapped(ns, uri, relay, ctx)) as never },
    descriptor: deepFreeze({ ...structuredClone(resource), uri }),
    forms: new Set(),
  };
  return Object.freeze(def);
}

/** A template whose match also hands the handler the URI it matched (the upstream reads that URI). */
class MountedTemplate extends UriTemplate {
  override match(uri: string) {
    const variables = super.match(uri);
    return variables && { ...variables, [MATCHED_URI]: uri };
  }
}

export function mountTemplate(ns: NamespaceMap, t: ResourceTemplate, relay: Relay, report: (m: string) => void) {
  const uriTemplate = ns.uri(t.uriTemplate);
  let template: UriTemplate;
  try {
    template = new MountedTemplate(uriTemplate);
  } catch (e) {
    return void report(`template ${JSON.stringify(t.uriTemplate)} skipped: ${e instanceof Error ? e.message : e}`);
  }
  const def: ResourceTemplateDefinition = {
    kind: 'resourceTemplate',
    uriTemplate,
    template,
    mimeType: t.mimeType,
    owner: `mount ${ns.namespace}: template ${t.uriTemplate}`,
    source: {
      kind: 'function',
      fn: ((vars: Record<string, string>, ctx: Context) => readMapped(ns, vars[MATCHED_URI]!, relay, ctx)) as never,
    },
    descriptor: deepFreeze({ ...structuredClone(t), uriTemplate }),
    forms: new Set(),
  };
  return Object.freeze(def);
}

/** Reads the upstream URI and gives each content back under our URI. */
async function readMapped(ns: NamespaceMap, ours: string, relay: Relay, ctx: Context): Promise<unknown> {
  const result = (await relay('resources/read', { uri: ns.upstreamUri(ours) }, ctx)) as JsonObject;
  const contents = Array.isArray(result.contents) ? (result.contents as JsonObject[]) : [];
  return {
    ...result,
    contents: contents.map((c) => (typeof c.uri === 'string' ? { ...c, uri: ns.uri(c.uri) } : c)),
  };
}

/**
 * `completion/complete` for a mounted prompt's arguments or template's variables, answered by the
 * upstream under its own reference (only when it declared the completions capability).
 */
export function mountCompletions(
  def: PromptDefinition | ResourceTemplateDefinition,
  upstream: Prompt | ResourceTemplate,
  complete: Complete,
): CompletionDefinition[] {
  let ours: CompletionReference;
  let theirs: CompletionReference;
  let names: readonly string[];
  if (def.kind === 'prompt') {
    ours = { type: 'ref/prompt', name: def.name };
    theirs = { type: 'ref/prompt', name: (upstream as Prompt).name };
    const args = (upstream as Prompt).arguments ?? [];
    names = args.map((a) => a.name).filter((n): n is string => typeof n === 'string');
  } else {
    ours = { type: 'ref/resource', uri: def.uriTemplate };
    theirs = { type: 'ref/resource', uri: (upstream as ResourceTemplate).uriTemplate };
    names = def.template.variableNames;
  }
  return names.map((argument) =>
    Object.freeze<CompletionDefinition>({
      kind: 'completion',
      ref: ours,
      argument,
      owner: `${def.owner}: completion of ${argument}`,
      source: {
        kind: 'function',
        fn: ((value: string, context: { arguments?: Record<string, string> }) =>
          complete({ ref: theirs, argument: { name: argument, value }, context })) as never,
      },
    }),
  );
}
