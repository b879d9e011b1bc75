/**
 * The start-up check of a DTO, without building its JSON Schema (issue 38). It reads each property's
 * decorators (`describeDtoProperties`, which throws for anything with no faithful JSON form), refuses
 * undescribed fields, and walks nested DTOs: every mistake the schema builder would refuse. The facts
 * it reads are kept for the builder, which takes them on first use (first list or first call), so
 * nothing is read twice and nothing is built before a client asks for it.
 */
import { FrameworkError } from '../errors/framework-error';
import { deepFrozenCopy } from './frozen-json';
import { readInstanceFields, type InstanceFields } from './initialiser-defaults';
import { describeDtoProperties, type PropertyFacts } from './property-facts';
import { dtoShape, type DtoShape } from './dto-shape-key';

/** What bootstrap needs to know of a checked DTO without its schema. */
export interface DtoOutline {
  /** Its top-level property names (the schema's `properties`). */
  readonly names: ReadonlySet<string>;
  /** Whether its schema can carry `x-mcp-header`: an `@Field({ mcpHeader })` or raw `@Field({ schema })`, nested. */
  readonly mayDeclareHeaders: boolean;
  /** The facts the check read, for the schema builder (`dtoToJsonSchema(dto, outline.facts)`): nothing read again. */
  readonly facts: readonly PropertyFacts[];
}

const outlines = new WeakMap<Function, DtoOutline>();
/** Facts read by a check and not yet taken by the builder. */
const checkedFacts = new WeakMap<Function, readonly PropertyFacts[]>();
/**
 * The facts of each DTO shape that passed `describeChecked` (dto-shape-key.ts), shared by every DTO of
 * that shape, and the outline of each facts array whose walk passed: a DTO of a known shape is checked
 * by finding its shape.
 */
const factsByShape = new WeakMap<DtoShape, readonly PropertyFacts[]>();
const outlinesByFacts = new WeakMap<readonly PropertyFacts[], DtoOutline>();

/** Checks `dto` and every DTO it nests (once per class); throws the error its schema would, in the same order. */
export function checkDto(dto: Function): DtoOutline {
  let outline = outlines.get(dto);
  if (outline) return outline;
  let root = checkedFacts.get(dto);
  if (root === undefined) {
    const fields = readInstanceFields(dto);
    const shape = dtoShape(dto, fields);
    const known = shape === undefined ? undefined : factsByShape.get(shape);
    if (known) {
      // A DTO whose shape was checked and walked before keeps no entry of its own (two WeakMap entries
      // per DTO, thousands in a generated app): asked again, its shape finds the same outline.
      outline = outlinesByFacts.get(known);
      if (outline) return outline;
      root = known;
    } else {
      root = describeNew(dto, fields, shape);
      checkedFacts.set(dto, root);
    }
  }
  // Same facts, same walk: it reads nothing but the facts (nested classes are in them, by identity).
  outline = outlinesByFacts.get(root);
  if (!outline) {
    const walk = { seen: new Set<Function>([dto]), mayDeclareHeaders: false };
    checkProperties(root, walk);
    const names = new Set(root.map((p) => p.name));
    outline = Object.freeze({ names, mayDeclareHeaders: walk.mayDeclareHeaders, facts: root });
    outlinesByFacts.set(root, outline);
  }
  outlines.set(dto, outline);
  return outline;
}

/** Depth first, in property order: the order the builder meets (and refuses) nested DTOs. */
function checkProperties(facts: readonly PropertyFacts[], walk: { seen: Set<Function>; mayDeclareHeaders: boolean }) {
  for (const property of facts) {
    const { field } = property;
    if (field.mcpHeader !== undefined || field.schema !== undefined) walk.mayDeclareHeaders = true;
    assertCopyable(property);
    const nested = property.value.dto;
    if (!nested || walk.seen.has(nested)) continue;
    walk.seen.add(nested);
    const checked = outlines.get(nested); // checked with all it nests already
    if (checked) walk.mayDeclareHeaders ||= checked.mayDeclareHeaders;
    else checkProperties(factsOf(nested), walk);
  }
}

/**
 * The facts of a DTO for the schema builder: those in its outline (`checked`), else those a check kept
 * (handed over once), else read now.
 */
export function describedFacts(dto: Function, checked?: DtoOutline): readonly PropertyFacts[] {
  if (checked) return checked.facts;
  const kept = checkedFacts.get(dto);
  if (kept) {
    checkedFacts.delete(dto);
    return kept;
  }
  return describeChecked(dto);
}

function factsOf(dto: Function): readonly PropertyFacts[] {
  const facts = checkedFacts.get(dto) ?? describeChecked(dto);
  checkedFacts.set(dto, facts);
  return facts;
}

function describeChecked(dto: Function): readonly PropertyFacts[] {
  const fields = readInstanceFields(dto);
  const shape = dtoShape(dto, fields);
  return (shape === undefined ? undefined : factsByShape.get(shape)) ?? describeNew(dto, fields, shape);
}

/** Reads a DTO whose shape passed no check before; a shape is kept only once its facts passed. */
function describeNew(dto: Function, fields: InstanceFields, shape: DtoShape | undefined): readonly PropertyFacts[] {
  const facts = describeDtoProperties(dto, fields);
  rejectUndescribedFields(dto, facts, fields.names);
  if (shape !== undefined) factsByShape.set(shape, facts);
  return facts;
}

/** The builder deep-copies raw fragments, examples and defaults: one with a reference cycle fails here. */
function assertCopyable(property: PropertyFacts): void {
  const { field, defaultValue } = property;
  for (const value of [field.schema, field.examples, defaultValue?.value]) {
    if (value !== null && typeof value === 'object') deepFrozenCopy(value);
  }
}

/**
 * A class with fields but no decorated property would validate nothing and describe nothing. Fields
 * leave a trace when initialised or under `useDefineForClassFields` (TypeScript's default for ES2022
 * targets), even as `undefined`. A class with no field at all takes no arguments.
 */
function rejectUndescribedFields(dto: Function, facts: readonly PropertyFacts[], fields: readonly string[]): void {
  if (facts.length) return rejectUndecoratedField(dto, facts, fields);
  if (!fields.length) return;
  throw new FrameworkError(
    'OMC_SCHEMA_UNSUPPORTED',
    `${dto.name}.${fields[0]}: ${dto.name} has fields but no decorated property; ` +
      'add class-validator decorators (e.g. @IsString()) or @Field() to each property',
  );
}

/** One undecorated field among decorated ones would drop out of the schema, and the validator would refuse it. */
function rejectUndecoratedField(dto: Function, facts: readonly PropertyFacts[], fields: readonly string[]): void {
  const described = new Set(facts.map((f) => f.name));
  const undecorated = fields.filter((name) => !described.has(name));
  if (!undecorated.length) return;
  throw new FrameworkError(
    'OMC_SCHEMA_UNSUPPORTED',
    `${dto.name}.${undecorated[0]}: this field has no decorator, so it is not in the input schema and a ` +
      `client that sends it is refused; add a class-validator decorator (e.g. @IsString(), or ` +
      `@IsOptional() for an optional one) or @Field(), or move it out of ${dto.name}` +
      (undecorated.length > 1 ? ` (also: ${undecorated.slice(1).join(', ')})` : ''),
  );
}
