import { dtoToJsonSchema } from './dto-schema';
import { compileJsonSchema } from './json-schema-validator';
import type { JsonSchemaObject } from './json-schema-types';
import { describeDtoProperties } from './property-facts';

type FragmentCheck = ((value: unknown) => string[]) | null;

const checks = new WeakMap<Function, Map<string, FragmentCheck>>();

/**
 * Runtime side of `@Field`: a property typed only by `@Field` / its declared type (or by a raw `schema`) has no
 * class-validator decorator to check its type, so its value is checked against the schema we advertise.
 * Returns the problems, worded after `property`; empty when the value fits or other decorators check it.
 */
export function fieldValueProblems(dto: Function, property: string, value: unknown): string[] {
  const check = checkFor(dto, property);
  if (!check) return [];
  if (value === undefined) return [`${property} is required`];
  return check(value).map((problem) => underProperty(property, problem));
}

/** The fragment was checked on its own, so its paths start below the property: put the property back in front. */
function underProperty(property: string, problem: string): string {
  if (problem.startsWith('input ')) return `${property}${problem.slice('input'.length)}`;
  if (problem.startsWith('property ')) return `property ${underProperty(property, problem.slice('property '.length))}`;
  return problem.startsWith('[') ? `${property}${problem}` : `${property}.${problem}`;
}

function checkFor(dto: Function, property: string): FragmentCheck {
  let perClass = checks.get(dto);
  if (!perClass) {
    perClass = new Map();
    checks.set(dto, perClass);
  }
  if (!perClass.has(property)) perClass.set(property, buildCheck(dto, property));
  return perClass.get(property) ?? null;
}

function buildCheck(dto: Function, property: string): FragmentCheck {
  const facts = describeDtoProperties(dto).find((p) => p.name === property);
  if (!facts || !(facts.untypedByValidators || facts.field.schema)) return null;
  const root = dtoToJsonSchema(dto);
  const fragment = (root.properties as Record<string, JsonSchemaObject>)[property];
  if (!fragment) return null;
  // Keep the root's $defs reachable so a recursive $ref inside the fragment still resolves.
  const schema = root.$defs ? { ...fragment, $defs: root.$defs } : fragment;
  const validate = compileJsonSchema(schema);
  return (value) => {
    const result = validate(value);
    return result.ok ? [] : result.errors;
  };
}
