/**
 * A DTO's decorator signature (issue 38): one object, the same for two DTOs exactly when every input of
 * their start-up check is equal. Apps generated from an API description repeat a few DTO shapes
 * thousands of times; keyed by this, the check (and the schema built from it) is done once per shape,
 * and each further DTO costs one walk of its metadata.
 *
 * The signature is the path through a trie of Maps, one step per input the check reads, in order: each
 * class-validator rule (property, type, name, `each`, the constraints it reads), each property's
 * `design:type`, and the fields and JSON defaults of a fresh instance. Primitives count by value; plain
 * arrays and regular expressions by what the check reads of them (elements; source and flags); any
 * other object, function or class by identity. A DTO whose check reads more (an ancestor class,
 * `@Field`, class-transformer's `@Type`) has no signature and is checked on its own.
 */
import 'reflect-metadata';
import { hasOwnFieldOptions } from './field-metadata';
import type { InstanceFields } from './initialiser-defaults';
import { mayHaveTypeMetadata } from './dto-properties';
import { ownValidationMetadatas } from './validation-metadata-index';

/** One shape: equal signatures are the same object. */
export interface DtoShape {
  readonly next: Map<unknown, DtoShape>;
}

/** Rule types property-facts.ts notes (optional, whitelisted, nested) without reading their constraints. */
const NOTED_TYPES = new Set(['conditionalValidation', 'whitelistValidation', 'nestedValidation']);
// Steps that are no user value (Map keys compare -0 and 0 equal, so -0 has its own).
const NOT_READ = Symbol('not read');
const MINUS_ZERO = Symbol('-0');
const ARRAY = Symbol('array');
const REGEXP = Symbol('regexp');
const NO_DEFAULT = Symbol('no default');
/** Past this many steps the trie starts again (only speed is lost); it holds user values it keys on. */
const STEPS_KEPT = 100_000;

let root: DtoShape = { next: new Map() };
let steps = 0;

/** The shape of `dto`, or undefined when its check reads more than the signature holds. */
export function dtoShape(dto: Function, fields: InstanceFields): DtoShape | undefined {
  const prototype = (dto as { prototype?: unknown }).prototype;
  if (Object.getPrototypeOf(dto) !== Function.prototype) return undefined; // an ancestor's rules and fields count
  if (typeof prototype !== 'object' || prototype === null) return undefined;
  if (Object.getPrototypeOf(prototype) !== Object.prototype) return undefined;
  if (hasOwnFieldOptions(dto) || mayHaveTypeMetadata(dto)) return undefined;
  const rules = ownValidationMetadatas(dto);
  if (rules === undefined) return undefined;
  if (steps > STEPS_KEPT) {
    root = { next: new Map() };
    steps = 0;
  }
  let at = step(root, rules.length);
  const properties: string[] = [];
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (rule.target !== dto) return undefined;
    const name = rule.propertyName;
    if (!properties.includes(name)) properties.push(name);
    // Named as the check names it (registerDecorator makes a constraint class per decorator call, so
    // the class's identity would tell every DTO apart); a rule with a name is named by it, one step.
    const ruleName = rule.name;
    at = step(step(step(at, name), rule.type), ruleName);
    const decorator = ruleName ?? (rule.constraintCls?.name || rule.type);
    if (ruleName === undefined || ruleName === null) at = step(at, decorator);
    at = step(at, !!rule.each);
    const noted = NOTED_TYPES.has(rule.type) || decorator === 'isDefined';
    if (noted) at = step(at, NOT_READ);
    else at = rule.constraints === undefined ? step(at, undefined) : items(at, rule.constraints);
  }
  for (let i = 0; i < properties.length; i++) {
    at = step(at, Reflect.getOwnMetadata('design:type', prototype, properties[i]!));
  }
  const { names, defaults } = fields;
  at = step(at, names.length);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    at = step(at, name);
    at = defaults.has(name) ? value(at, defaults.get(name)) : step(at, NO_DEFAULT);
  }
  return at;
}

function step(at: DtoShape, key: unknown): DtoShape {
  let next = at.next.get(key);
  if (next === undefined) {
    next = { next: new Map() };
    at.next.set(key, next);
    steps++;
  }
  return next;
}

/**
 * The steps of an array's elements: a rule's constraints (an array class-validator made, read by index),
 * or a plain array among them.
 */
function items(at: DtoShape, array: readonly unknown[]): DtoShape {
  at = step(step(at, ARRAY), array.length);
  for (let i = 0; i < array.length; i++) at = value(at, array[i]);
  return at;
}

/** The steps of one value the check reads. */
function value(at: DtoShape, v: unknown): DtoShape {
  if (typeof v === 'number') return step(at, Object.is(v, -0) ? MINUS_ZERO : v);
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return step(at, v);
  // Only plain ones by content: the check reads no more of them than their elements (source and flags).
  const prototype = Object.getPrototypeOf(v) as unknown;
  if (prototype === Array.prototype && Reflect.ownKeys(v).length === (v as unknown[]).length + 1) {
    return items(at, v as readonly unknown[]);
  }
  if (prototype === RegExp.prototype && Reflect.ownKeys(v).length === 1) {
    return step(step(step(at, REGEXP), (v as RegExp).source), (v as RegExp).flags);
  }
  return step(at, v);
}
