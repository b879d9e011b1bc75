import { FrameworkError } from '../errors/framework-error';
import { deepFrozenCopy } from './frozen-json';
import type { JsonSchemaObject } from './json-schema-types';
import { describedFacts, type DtoOutline } from './dto-check';
import type { PropertyFacts, ValueFacts } from './property-facts';

type MutableSchema = Record<string, unknown>;

/** Output order of value keywords, fixed so a schema never depends on the order decorators were written. */
const VALUE_KEYWORDS = [
  'format',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minProperties',
] as const satisfies readonly (keyof ValueFacts)[];

const schemaCache = new WeakMap<Function, JsonSchemaObject>();
/** DTOs of one shape share their facts (dto-check.ts); a flat one's schema is read from them alone. */
const schemaByFacts = new WeakMap<readonly PropertyFacts[], JsonSchemaObject>();
const rawSchemaCache = new WeakMap<object, JsonSchemaObject>();

/**
 * JSON Schema 2020-12 of a class-validator DTO, built once per class and frozen. Bootstrap only checks
 * a DTO (dto-check.ts); this runs on first use, from the facts that check read.
 * Nested DTOs are inlined (what most MCP clients and models read best); only a class that recurses
 * into itself goes to `$defs` and is referenced with `$ref` (the root itself as `"#"`).
 */
export function dtoToJsonSchema(dto: Function, checked?: DtoOutline): JsonSchemaObject {
  const cached = schemaCache.get(dto);
  if (cached) return cached;
  const facts = describedFacts(dto, checked);
  // A nested class goes by its own name into $defs when it recurses: only a flat schema is the facts' alone.
  const flat = facts.every((p) => p.value.dto === undefined);
  let schema = flat ? schemaByFacts.get(facts) : undefined;
  if (!schema) {
    schema = deepFrozenCopy(new DtoSchemaBuilder(dto, facts).build());
    if (flat) schemaByFacts.set(facts, schema);
  }
  schemaCache.set(dto, schema);
  return schema;
}

/** A DTO class becomes its schema; a raw schema (the escape hatch) is returned verbatim, deep-frozen. */
export function jsonSchemaFor(input: Function | JsonSchemaObject): JsonSchemaObject {
  if (typeof input === 'function') return dtoToJsonSchema(input);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new FrameworkError('OMC_SCHEMA_UNSUPPORTED', 'a raw schema must be a JSON object (or pass a DTO class)');
  }
  // Cached by identity so the same raw schema always yields the same object (and one compiled validator).
  let frozen = rawSchemaCache.get(input);
  if (!frozen) {
    frozen = deepFrozenCopy(input);
    rawSchemaCache.set(input, frozen);
  }
  return frozen;
}

class DtoSchemaBuilder {
  private readonly building: Function[] = [];
  private readonly recursive = new Set<Function>();
  private readonly defs = new Map<string, MutableSchema>();
  private readonly defNames = new Map<Function, string>();

  constructor(
    private readonly root: Function,
    private readonly rootFacts: readonly PropertyFacts[],
  ) {}

  build(): MutableSchema {
    const schema = this.objectSchema(this.root);
    if (this.defs.size) schema.$defs = Object.fromEntries(this.defs);
    return schema;
  }

  private objectSchema(dto: Function): MutableSchema {
    if (this.building.includes(dto)) {
      this.recursive.add(dto);
      return { $ref: this.refTo(dto) };
    }
    this.building.push(dto);
    // The root is met here once (it recurses through a $ref, above), and its facts were taken already.
    const facts = dto === this.root ? this.rootFacts : describedFacts(dto);
    const properties: MutableSchema = {};
    const required: string[] = [];
    for (const property of facts) {
      properties[property.name] = this.propertySchema(property);
      if (!property.optional && !property.defaultValue) required.push(property.name);
    }
    this.building.pop();
    const schema: MutableSchema = { type: 'object', properties };
    if (required.length) schema.required = required;
    schema.additionalProperties = false; // the validator forbids unknown keys; say so
    if (dto === this.root || !this.recursive.has(dto)) return schema;
    this.defs.set(this.refTo(dto).slice('#/$defs/'.length), schema);
    return { $ref: this.refTo(dto) };
  }

  private refTo(dto: Function): string {
    if (dto === this.root) return '#';
    let name = this.defNames.get(dto);
    if (!name) {
      const taken = new Set(this.defNames.values());
      name = dto.name || 'Dto';
      for (let n = 2; taken.has(name); n++) name = `${dto.name || 'Dto'}_${n}`;
      this.defNames.set(dto, name);
    }
    return `#/$defs/${name}`;
  }

  private propertySchema(property: PropertyFacts): MutableSchema {
    if (property.field.schema) return { ...property.field.schema };
    const value = this.valueSchema(property.value, property, property.array !== undefined);
    const { array } = property;
    const body: MutableSchema = array
      ? {
          type: 'array',
          items: value,
          ...compact({ minItems: array.minItems, maxItems: array.maxItems, uniqueItems: array.uniqueItems }),
        }
      : value;
    return annotate(body, property);
  }

  private valueSchema(value: ValueFacts, property: PropertyFacts, isItem: boolean): MutableSchema {
    if (value.kind === 'dto' && value.dto) return this.objectSchema(value.dto);
    const type = value.kind ? { type: value.kind } : {};
    if (value.enumValues) return { ...type, ...enumKeywords(value.enumValues, property, isItem) };
    if (value.constValue) return { ...type, const: value.constValue.value };
    const schema: MutableSchema = { ...type };
    for (const keyword of VALUE_KEYWORDS) if (value[keyword] !== undefined) schema[keyword] = value[keyword];
    return schema;
  }
}

/** Titled enums: `oneOf` for a single value, `anyOf` for array items (the MCP form conventions). */
function enumKeywords(values: readonly unknown[], property: PropertyFacts, isItem: boolean): MutableSchema {
  const titles = property.field.enumTitles;
  if (!titles) return { enum: [...values] };
  const titleOf = (v: unknown): string => titles[String(v)] ?? String(v);
  if (property.field.legacyEnumNames) return { enum: [...values], enumNames: values.map(titleOf) };
  const options = values.map((v) => ({ const: v, title: titleOf(v) }));
  return isItem ? { anyOf: options } : { oneOf: options };
}

/** Annotations go right after `type` (easy to read), default/examples/x-mcp-header last. */
function annotate(body: MutableSchema, property: PropertyFacts): MutableSchema {
  const { field } = property;
  const { type, ...rest } = body;
  const schema: MutableSchema = type === undefined ? {} : { type };
  if (field.title !== undefined) schema.title = field.title;
  if (field.description !== undefined) schema.description = field.description;
  Object.assign(schema, rest);
  if (property.defaultValue) schema.default = property.defaultValue.value;
  if (field.examples !== undefined) schema.examples = [...field.examples];
  if (field.mcpHeader !== undefined) schema['x-mcp-header'] = field.mcpHeader;
  return schema;
}

function compact(object: object): MutableSchema {
  const source = object as Record<string, unknown>;
  const kept: MutableSchema = {};
  for (const key in source) if (source[key] !== undefined) kept[key] = source[key];
  return kept;
}
