/** Bootstrap: provider classes' recorded metadata → frozen, validated definitions. */
import { FrameworkError } from '../errors/framework-error';
import { MetadataStore } from '../metadata/store';
import type {
  CompletionTarget,
  PromptOptions,
  ResourceOptions,
  ResourceTemplateOptions,
  SchemaSource,
  ToolOptions,
} from '../metadata/options';
import type { JsonObject } from '../protocol/jsonrpc';
import { mcpHeaderProblems } from '../protocol/mcp-header';
import { compileJsonSchema, createDtoValidator, jsonSchemaFor } from '../schema';
import type {
  CompletionDefinition,
  HandlerSource,
  InputValidation,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definitions';
import {
  assertHandlerParams,
  type HandlerKind,
  hasUntypedInput,
  inferInputDto,
  methodParamTypes,
} from './handler-params';
import { validateCacheHints } from '../config/cache-hint-options';
import { declaredForms } from './declared-forms';
import { asksMeta, ASKS_META_KEY, declaredAsks, withFallbackArgument, withoutFallbackArgument } from './declared-asks';
import { assertValidName } from './names';
import { UriTemplate } from './uri-template';
import { deepFreeze, withoutUndefined } from './objects';
import { appResource, toolMetaWithApp } from './build-app-ui';

const EMPTY_INPUT: JsonObject = Object.freeze({ type: 'object', additionalProperties: false }) as JsonObject;

function isClass(s: SchemaSource): s is Function {
  return typeof s === 'function';
}

/** Validator for a DTO class or a raw JSON Schema; a missing `arguments` is `{}`. */
export function validatorFor(source: SchemaSource | undefined): (args: unknown) => InputValidation {
  if (source === undefined) {
    // No input declared: the advertised schema is `additionalProperties: false`, so any key is refused.
    return (args) => {
      if (args === undefined) return { ok: true, value: {} };
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        return { ok: false, errors: ['arguments must be an object'] };
      const extra = Object.keys(args);
      return extra.length === 0
        ? { ok: true, value: args }
        : { ok: false, errors: extra.slice(0, 10).map((k) => `property ${k} should not exist`) };
    };
  }
  if (isClass(source)) {
    const validate = createDtoValidator(source as new () => object);
    return (args) => validate(args ?? {});
  }
  const check = compileJsonSchema(source);
  return (args) => {
    const value = args ?? {};
    const r = check(value);
    return r.ok ? { ok: true, value } : { ok: false, errors: r.errors };
  };
}

/** A schema problem found while building a definition names its handler. */
function forOwner<T>(owner: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof FrameworkError && !e.detail.startsWith(`${owner}:`))
      throw new FrameworkError(e.code, `${owner}: ${e.detail}`, { cause: e });
    throw e;
  }
}

/** An output schema is compiled at start-up (a raw one that does not compile fails there). */
function outputChecker(schema: JsonObject): (structured: unknown) => string | undefined {
  const check = compileJsonSchema(schema);
  return (structured) => {
    const r = check(structured);
    return r.ok ? undefined : r.errors.join('; ').replace(/\binput\b/g, 'structuredContent');
  };
}

function inputSource(owner: string, explicit: SchemaSource | undefined, paramTypes: readonly Function[]) {
  if (explicit !== undefined) return explicit;
  const dto = inferInputDto(paramTypes);
  if (dto === undefined && hasUntypedInput(paramTypes)) {
    throw new FrameworkError(
      'OMC_SCHEMA_UNSUPPORTED',
      `${owner}: the input parameter has no class type (an interface or object literal leaves no runtime trace). Declare a DTO class for it, or pass \`input\` in the decorator options; a tool without arguments can take just \`ctx: Context\`. If that parameter is the Context, import it as a value: \`import type { Context }\` erases it from the decorator metadata.`,
    );
  }
  return dto;
}

export interface ToolSpec extends ToolOptions {
  name: string;
}

export function buildTool(options: ToolOptions, name: string, owner: string, source: HandlerSource): ToolDefinition {
  assertValidName('tool', name, owner);
  const paramTypes = source.kind === 'method' ? source.paramTypes : [];
  const input = inputSource(owner, options.input, paramTypes);
  const { inputSchema, outputSchema, checkOutput, validate } = forOwner(owner, () => {
    const output = options.output === undefined ? undefined : (jsonSchemaFor(options.output) as JsonObject);
    return {
      inputSchema: (input === undefined ? EMPTY_INPUT : jsonSchemaFor(input)) as JsonObject,
      outputSchema: output,
      checkOutput: output === undefined ? undefined : outputChecker(output),
      validate: validatorFor(input),
    };
  });
  if (inputSchema.type !== 'object') {
    throw new FrameworkError('OMC_SCHEMA_UNSUPPORTED', `${owner}: a tool's inputSchema must have type "object".`);
  }
  if (options.task !== undefined && options.task !== 'optional' && options.task !== 'required') {
    throw new FrameworkError(
      'OMC_INVALID_DEFINITION',
      `${owner}: task must be 'optional' or 'required' (got ${JSON.stringify(options.task)}).`,
    );
  }
  const headerProblem = mcpHeaderProblems(inputSchema)[0];
  if (headerProblem) throw new FrameworkError('OMC_INVALID_MCP_HEADER', `${owner}: x-mcp-header on ${headerProblem}`);
  const asks = declaredAsks(owner, 'tool', options.asks);
  const wireSchema = forOwner(owner, () => withFallbackArgument(inputSchema, asks));
  const shownAsks = asksMeta(asks);
  const withAsks = (meta: JsonObject | undefined) => (shownAsks ? { ...meta, [ASKS_META_KEY]: shownAsks } : meta);
  const descriptor = deepFreeze(
    withoutUndefined({
      name,
      title: options.title,
      description: options.description ?? '',
      inputSchema: wireSchema,
      outputSchema,
      annotations: options.annotations,
      icons: options.icons,
      _meta: withAsks(options.ui ? toolMetaWithApp(owner, name, options.ui, options._meta) : options._meta),
    }),
  );
  return Object.freeze({
    kind: 'tool',
    name,
    owner,
    source,
    descriptor,
    inputSchema: wireSchema,
    outputSchema,
    checkOutput,
    // The fallback's own argument is the framework's: the DTO never sees it.
    validate: asks?.fallback ? (args: unknown) => validate(withoutFallbackArgument(args, asks)) : validate,
    task: options.task,
    forms: declaredForms(owner, options.forms),
    asks,
  });
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
  const schema = args === undefined ? undefined : (jsonSchemaFor(args) as JsonObject);
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
  const descriptor = deepFreeze(
    withoutUndefined({
      name,
      title: options.title,
      description: options.description ?? '',
      arguments: argumentsList.length ? argumentsList : undefined,
      icons: options.icons,
      _meta: options._meta,
    }),
  );
  return Object.freeze({
    kind: 'prompt',
    name,
    owner,
    source,
    descriptor,
    validate: validatorFor(args),
    forms: declaredForms(owner, options.forms),
    asks: declaredAsks(owner, 'other', options.asks),
  });
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
  const method = (m: string, kind?: HandlerKind): HandlerSource => {
    const paramTypes = methodParamTypes(cls, m);
    if (kind) assertHandlerParams(owner(m), kind, paramTypes);
    return { kind: 'method', cls, method: m, paramTypes };
  };
  return {
    tools: MetadataStore.tools(cls).map((e) =>
      buildTool(e.options, e.options.name ?? e.method, owner(e.method), method(e.method, 'tool')),
    ),
    prompts: MetadataStore.prompts(cls).map((e) =>
      buildPrompt(e.options, e.options.name ?? e.method, owner(e.method), method(e.method, 'prompt')),
    ),
    resources: [
      ...MetadataStore.resources(cls).map((e) =>
        buildResource(e.options, owner(e.method), method(e.method, 'resource')),
      ),
      // A tool's app is a resource its guards cover.
      ...MetadataStore.tools(cls).flatMap((e) => {
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
