/** The only place that touches Reflect for our own keys: typed append and read. */
import { MetadataKeys } from './keys';
import type {
  CompletionTarget,
  MethodEntry,
  PromptOptions,
  ResourceOptions,
  ResourceTemplateOptions,
  SkillsOptions,
  ToolOptions,
} from './options';
import { FrameworkError } from '../errors/framework-error';

function assertReflect(): void {
  if (typeof Reflect !== 'object' || typeof (Reflect as { getMetadata?: unknown }).getMetadata !== 'function') {
    throw new FrameworkError(
      'OMC_REFLECT_METADATA_MISSING',
      "Reflect metadata API is missing: add `import 'reflect-metadata'` once, at the top of your entry file, before any decorated class is loaded.",
    );
  }
}

function append<O>(key: symbol, target: object, entry: MethodEntry<O>): void {
  assertReflect();
  const ctor = (target as { constructor: Function }).constructor;
  // Appended in place: a class with many decorated methods records them in linear time.
  const own: MethodEntry<O>[] | undefined = Reflect.getOwnMetadata(key, ctor);
  if (own) own.push(entry);
  else Reflect.defineMetadata(key, [entry], ctor);
}

/** Entries of a class and its ancestors; a subclass entry for the same method wins. */
function read<O>(key: symbol, cls: Function): MethodEntry<O>[] {
  assertReflect();
  // Most classes: the entries are all on the class itself, one per method (no override to resolve).
  let only: MethodEntry<O>[] | undefined;
  let owners = 0;
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const own = Reflect.getOwnMetadata(key, c) as MethodEntry<O>[] | undefined;
    if (own?.length) {
      only = own;
      owners++;
    }
  }
  if (owners === 0) return [];
  if (owners === 1 && oneEach(only!)) return only!.slice();
  const chain: Function[] = [];
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    chain.unshift(c as Function);
  }
  const byMethod = new Map<string, MethodEntry<O>[]>();
  for (const c of chain) {
    const own: MethodEntry<O>[] = Reflect.getOwnMetadata(key, c) ?? [];
    const seen = new Set<string>();
    for (const e of own) {
      if (!seen.has(e.method)) byMethod.set(e.method, []);
      seen.add(e.method);
      byMethod.get(e.method)!.push(e);
    }
  }
  return [...byMethod.values()].flat();
}

function oneEach(entries: readonly MethodEntry<unknown>[]): boolean {
  if (entries.length < 2) return true;
  return new Set(entries.map((e) => e.method)).size === entries.length;
}

export const MetadataStore = {
  addTool: (t: object, e: MethodEntry<ToolOptions>) => append(MetadataKeys.tools, t, e),
  addPrompt: (t: object, e: MethodEntry<PromptOptions>) => append(MetadataKeys.prompts, t, e),
  addResource: (t: object, e: MethodEntry<ResourceOptions>) => append(MetadataKeys.resources, t, e),
  addResourceTemplate: (t: object, e: MethodEntry<ResourceTemplateOptions>) =>
    append(MetadataKeys.resourceTemplates, t, e),
  addCompletion: (t: object, e: MethodEntry<CompletionTarget>) => append(MetadataKeys.completions, t, e),
  tools: (cls: Function) => read<ToolOptions>(MetadataKeys.tools, cls),
  prompts: (cls: Function) => read<PromptOptions>(MetadataKeys.prompts, cls),
  resources: (cls: Function) => read<ResourceOptions>(MetadataKeys.resources, cls),
  resourceTemplates: (cls: Function) => read<ResourceTemplateOptions>(MetadataKeys.resourceTemplates, cls),
  completions: (cls: Function) => read<CompletionTarget>(MetadataKeys.completions, cls),
  /** `@Skills` folders, in the order written (a class may publish several). */
  addSkills: (cls: Function, options: SkillsOptions) => {
    assertReflect();
    const own: SkillsOptions[] = Reflect.getOwnMetadata(MetadataKeys.skills, cls) ?? [];
    Reflect.defineMetadata(MetadataKeys.skills, [options, ...own], cls);
  },
  skills: (cls: Function): readonly SkillsOptions[] => {
    assertReflect();
    return Reflect.getOwnMetadata(MetadataKeys.skills, cls) ?? [];
  },
  /** `design:paramtypes` of a method, or undefined when the compiler emitted no metadata. */
  paramTypes: (cls: Function, method: string): Function[] | undefined => {
    assertReflect();
    // A decorated method has its own (tsc emits it beside the decorator): one lookup, where the
    // inherited lookup makes two (has, then get) before it would walk up.
    const own = Reflect.getOwnMetadata('design:paramtypes', cls.prototype, method) as Function[] | undefined;
    return own ?? Reflect.getMetadata('design:paramtypes', cls.prototype, method);
  },
  constructorParamTypes: (cls: Function): Function[] | undefined => {
    assertReflect();
    return Reflect.getMetadata('design:paramtypes', cls);
  },
  /**
   * The class's own constructor `design:paramtypes`: emitted only when the class itself is decorated (e.g.
   * @injectable()).
   */
  ownConstructorParamTypes: (cls: Function): Function[] | undefined => {
    assertReflect();
    return Reflect.getOwnMetadata('design:paramtypes', cls);
  },
  /** The tokens of a constructor's tsyringe `@inject(token)` parameters. */
  injectedTokens: (cls: Function): unknown[] => {
    assertReflect();
    const tokens: Record<string, unknown> = Reflect.getOwnMetadata('injectionTokens', cls) ?? {};
    return Object.values(tokens);
  },
  /** Constructor positions that carry a tsyringe `@inject(token)` (tsyringe's own metadata key). */
  injectedPositions: (cls: Function): Set<number> => {
    assertReflect();
    const tokens: Record<string, unknown> = Reflect.getOwnMetadata('injectionTokens', cls) ?? {};
    return new Set(Object.keys(tokens).map(Number));
  },
};
