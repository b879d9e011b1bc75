import 'reflect-metadata';

/** Where `@Field` keeps its facts: one map of property → options per class (own properties only). */
export const FIELD_METADATA_KEY = Symbol.for('onemodelcontext:field');

/** A primitive constructor or a DTO class, given lazily so classes declared later can be named. */
export type FieldTypeThunk = () => Function;

/** JSON-Schema facts that class-validator cannot express. */
export interface FieldOptions {
  readonly description?: string;
  readonly title?: string;
  readonly default?: unknown;
  readonly examples?: readonly unknown[];
  /** e.g. 'email', 'uri', 'date', 'date-time'; overrides the format a validator implies. */
  readonly format?: string;
  /** Titles for enum values: single-select renders `oneOf:[{const,title}]`, multi-select `items:{anyOf:[…]}`. */
  readonly enumTitles?: Readonly<Record<string, string>>;
  /** Render titles the deprecated way, `enum` + `enumNames`, for older clients. */
  readonly legacyEnumNames?: boolean;
  /** Emitted as `"x-mcp-header": "<value>"` on the property. */
  readonly mcpHeader?: string;
  /** The element type of an array, or the type of a property whose design type says too little. */
  readonly type?: FieldTypeThunk;
  /** Escape hatch: a raw JSON Schema fragment used verbatim instead of the generated one. */
  readonly schema?: Readonly<Record<string, unknown>>;
}

export type FieldOptionsByProperty = ReadonlyMap<string, FieldOptions>;

export function writeFieldOptions(cls: Function, property: string, options: FieldOptions): void {
  const own = Reflect.getOwnMetadata(FIELD_METADATA_KEY, cls) as Map<string, FieldOptions> | undefined;
  const next = new Map(own ?? []);
  next.set(property, Object.freeze({ ...options }));
  Reflect.defineMetadata(FIELD_METADATA_KEY, next, cls);
  withFields().add(cls);
}

/**
 * The classes `@Field` wrote to, so that a DTO with none in its chain (most) is answered without a
 * reflect-metadata lookup per class. On globalThis: two copies of this module see the same marks.
 */
const MARKED = Symbol.for('onemodelcontext:field-classes');
function withFields(): WeakSet<Function> {
  const holder = globalThis as unknown as Record<symbol, WeakSet<Function> | undefined>;
  return (holder[MARKED] ??= new WeakSet());
}

/** Whether `@Field` wrote to `cls` itself. */
export function hasOwnFieldOptions(cls: Function): boolean {
  return withFields().has(cls);
}

/** Field options of a class and its ancestors; a subclass's options for a property replace its parent's. */
export function getFieldOptions(cls: Function): FieldOptionsByProperty {
  const chain: Function[] = [];
  for (let current: unknown = cls; typeof current === 'function' && current !== Function.prototype; ) {
    chain.unshift(current);
    current = Object.getPrototypeOf(current);
  }
  const marked = withFields();
  if (!chain.some((klass) => marked.has(klass))) return new Map();
  const merged = new Map<string, FieldOptions>();
  for (const klass of chain) {
    const own = Reflect.getOwnMetadata(FIELD_METADATA_KEY, klass) as Map<string, FieldOptions> | undefined;
    own?.forEach((options, property) => merged.set(property, options));
  }
  return merged;
}
