/** Bootstrap: provider classes' recorded metadata → frozen, validated definitions. */
import { FrameworkError } from '../errors/framework-error';
import { MetadataStore } from '../metadata/store';
import type {
  CompletionTarget,
  PromptOptions,
  ResourceOptions,
  SchemaSource,
  ResourceTemplateOptions,
  ToolOptions,
} from '../metadata/options';
import type { JsonObject } from '../protocol/jsonrpc';
import { mcpHeaderProblems } from '../protocol/mcp-header';
import { compileJsonSchema, jsonSchemaFor } from '../schema';
import type {
  CompletionDefinition,
  HandlerSource,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definitions';
import { assertHandlerParams, type HandlerKind, methodParamTypes } from './handler-params';
import { type CheckedInput, checkInput, forOwner, forOwnerError, inputSource, validatorFor } from './handler-input';
import { validateCacheHints } from '../config/cache-hint-options';
import { declaredForms } from './declared-forms';
import {
  asksMeta,
  assertNoFallbackClash,
  type DeclaredAsks,
  declaredAsks,
} from './declared-asks';
import { assertValidName } from './names';
import { UriTemplate } from './uri-template';
import { deepFreeze, withoutUndefined } from './objects';
import { appResource, toolMetaWithApp } from './build-app-ui';
import { LazyPromptDefinition, LazyToolDefinition } from './lazy-definitions';

/** An output schema is compiled at start-up (a raw one that does not compile fails there). */
function outputChecker(schema: JsonObject): (structured: unknown) => string | undefined {
  const check = compileJsonSchema(schema);
  return (structured) => {
    const r = check(structured);
    return r.ok ? undefined : r.errors.join('; ').replace(/\binput\b/g, 'structuredContent');
  };
}

const NO_OUTPUT = { outputSchema: undefined, checkOutput: undefined } as const;

function outputOf(owner: string, source: SchemaSource) {
  return forOwner(owner, () => {
    const output = jsonSchemaFor(source) as JsonObject;
    return { outputSchema: output, checkOutput: outputChecker(output) };
  });
}

function assertHeaderRules(owner: string, input: CheckedInput): void {
  const problem = mcpHeaderProblems(forOwner(owner, () => input.schema()))[0];
  if (problem) throw new FrameworkError('OMC_INVALID_MCP_HEADER', `${owner}: x-mcp-header on ${problem}`);
}

function assertNoClash(owner: string, input: CheckedInput, asks: DeclaredAsks): void {
  forOwner(owner, () => assertNoFallbackClash(input.names, asks));
}

export interface ToolSpec extends ToolOptions {
  name: string;
}

/**
 * A tool: everything checked now; its input schema, validator and listing entry built on first use
 * (the first list page that shows it, or its first call), once.
 */
export function buildTool(options: ToolOptions, name: string, owner: string, source: HandlerSource): ToolDefinition {
  assertValidName('tool', name, owner);
  const paramTypes = source.kind === 'method' ? source.paramTypes : [];
  // No closure over this function's variables (not even on a path not taken): V8 would then allocate
  // their context on every call, and this runs once per tool at start-up.
  let input: CheckedInput;
  try {
    input = checkInput(inputSource(owner, options.input, paramTypes));
  } catch (e) {
    throw forOwnerError(owner, e);
  }
  const { outputSchema, checkOutput } = options.output === undefined ? NO_OUTPUT : outputOf(owner, options.output);
  if (input.built && input.schema().type !== 'object') {
    throw new FrameworkError('OMC_SCHEMA_UNSUPPORTED', `${owner}: a tool's inputSchema must have type "object".`);
  }
  if (options.task !== undefined && options.task !== 'optional' && options.task !== 'required') {
    throw new FrameworkError(
      'OMC_INVALID_DEFINITION',
      `${owner}: task must be 'optional' or 'required' (got ${JSON.stringify(options.task)}).`,
    );
  }
  // Only a schema that can carry x-mcp-header is built now, to check its header rules.
  if (input.mayDeclareHeaders) assertHeaderRules(owner, input);
  const asks = declaredAsks(owner, 'tool', options.asks);
  if (asks !== undefined) assertNoClash(owner, input, asks);
  const meta = options.ui ? toolMetaWithApp(owner, name, options.ui, options._meta) : options._meta;
  const linkedApp = (meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri;
  return new LazyToolDefinition(
    name,
    owner,
    source,
    options,
    input,
    asks,
    asksMeta(asks),
    meta,
    declaredForms(owner, options.forms),
    outputSchema,
    checkOutput,
    typeof linkedApp === 'string' ? linkedApp : undefined,
  );
}

export function buildPrompt(
  options: PromptOptions,
  name: string,
  owner: string,
  source: HandlerSource,
): PromptDefinition {
  assertValidName('prompt', name, owner);
  const paramTypes = source.kind === 'method' ? source.paramTypes : [];
  const args = inputSource(owner, options.args, paramTypes);
  const input = args === undefined ? undefined : checkInput(args);
  const descriptor = () => {
    const schema = input?.schema();
    const properties = (schema?.properties ?? {}) as Record<string, JsonObject>;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    const argumentsList = Object.entries(properties).map(([argName, prop]) =>
      withoutUndefined({
        name: argName,
        title: prop.title as string | undefined,
        description: prop.description as string | undefined,
        required: required.has(argName),
      }),
    );
    return deepFreeze(
      withoutUndefined({
        name,
        title: options.title,
        description: options.description ?? '',
        arguments: argumentsList.length ? argumentsList : undefined,
        icons: options.icons,
        _meta: options._meta,
      }),
    );
  };
  const validate = input ? () => input.validator() : () => validatorFor(undefined);
  const forms = declaredForms(owner, options.forms);
  const asks = declaredAsks(owner, 'other', options.asks);
  return new LazyPromptDefinition({ name, owner, source, forms, asks, descriptor, validate });
}

export function buildResource(options: ResourceOptions, owner: string, source: HandlerSource): ResourceDefinition {
  if (typeof options.uri !== 'string' || options.uri.length === 0 || UriTemplate.isTemplate(options.uri)) {
    throw new FrameworkError(
      'OMC_INVALID_DEFINITION',
      `${owner}: @Resource needs a fixed uri (use @ResourceTemplate for {variables}).`,
    );
  }
  const name = options.name ?? (source.kind === 'method' ? source.method : options.uri);
  const descriptor = deepFreeze(
    withoutUndefined({
      uri: options.uri,
      name,
      title: options.title,
      description: options.description,
      mimeType: options.mimeType,
      size: options.size,
      annotations: options.annotations,
      icons: options.icons,
      _meta: options._meta,
    }),
  );
  return Object.freeze({
    kind: 'resource',
    uri: options.uri,
    owner,
    source,
    descriptor,
    mimeType: options.mimeType,
    cache: options.cache === undefined ? undefined : validateCacheHints(owner, options.cache),
    forms: declaredForms(owner, options.forms),
    asks: declaredAsks(owner, 'other', options.asks),
  });
}

export function buildResourceTemplate(
  options: ResourceTemplateOptions,
  owner: string,
  source: HandlerSource,
): ResourceTemplateDefinition {
  const template = new UriTemplate(options.uriTemplate);
  const name = options.name ?? (source.kind === 'method' ? source.method : options.uriTemplate);
  const descriptor = deepFreeze(
    withoutUndefined({
      uriTemplate: options.uriTemplate,
      name,
      title: options.title,
      description: options.description,
      mimeType: options.mimeType,
      annotations: options.annotations,
      icons: options.icons,
      _meta: options._meta,
    }),
  );
  return Object.freeze({
    kind: 'resourceTemplate',
    uriTemplate: options.uriTemplate,
    template,
    owner,
    source,
    descriptor,
    mimeType: options.mimeType,
    cache: options.cache === undefined ? undefined : validateCacheHints(owner, options.cache),
    forms: declaredForms(owner, options.forms),
    asks: declaredAsks(owner, 'other', options.asks),
  });
}

export function buildCompletion(target: CompletionTarget, owner: string, source: HandlerSource): CompletionDefinition {
  const ref =
    'prompt' in target
      ? ({ type: 'ref/prompt', name: target.prompt } as const)
      : ({ type: 'ref/resource', uri: target.resourceTemplate } as const);
  return Object.freeze({ kind: 'completion', ref, argument: target.argument, owner, source });
}

/** Everything one provider class declares. */
export function explore(cls: Function) {
  const owner = (m: string) => `${cls.name}.${m}`;
  // Completions are called with explicit (value, context) arguments, so only asking handlers are checked.
  const method = (m: string, kind?: HandlerKind, named = kind && owner(m)): HandlerSource => {
    const paramTypes = methodParamTypes(cls, m);
    if (kind) assertHandlerParams(named!, kind, paramTypes);
    return { kind: 'method', cls, method: m, paramTypes };
  };
  const tools = MetadataStore.tools(cls);
  return {
    tools: tools.map((e) => {
      const named = owner(e.method);
      return buildTool(e.options, e.options.name ?? e.method, named, method(e.method, 'tool', named));
    }),
    prompts: MetadataStore.prompts(cls).map((e) =>
      buildPrompt(e.options, e.options.name ?? e.method, owner(e.method), method(e.method, 'prompt')),
    ),
    resources: [
      ...MetadataStore.resources(cls).map((e) =>
        buildResource(e.options, owner(e.method), method(e.method, 'resource')),
      ),
      // A tool's app is a resource its guards cover.
      ...tools.flatMap((e) => {
        const ui = e.options.ui;
        const app = ui && appResource(owner(e.method), e.options.name ?? e.method, e.options.description, ui);
        if (!app) return [];
        return [buildResource(app.options, owner(e.method), { kind: 'function', fn: app.read, cls, method: e.method })];
      }),
    ],
    resourceTemplates: MetadataStore.resourceTemplates(cls).map((e) =>
      buildResourceTemplate(e.options, owner(e.method), method(e.method, 'resourceTemplate')),
    ),
    completions: MetadataStore.completions(cls).map((e) =>
      buildCompletion(e.options, owner(e.method), method(e.method)),
    ),
  };
}
