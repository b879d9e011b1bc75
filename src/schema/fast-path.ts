/**
 * A fast accept path for flat DTOs whose every rule the generated JSON Schema states exactly:
 * a direct check of that schema (flat-schema-check.ts; compiled Ajv where that does not apply), then
 * `new Dto()` plus the input's own keys (what plainToInstance does for such a class). Only acceptance
 * is fast: anything refused goes through class-transformer and class-validator, so error messages and
 * edge cases stay theirs. Sound by construction: each whitelisted rule is at least as strict in the
 * schema as in class-validator (null is refused there even where @IsOptional lets it pass, and that
 * input then takes the full path).
 */
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { TransformationType } from 'class-transformer';
import type { JsonSchemaObject } from './json-schema-types';
import { compileJsonSchema } from './json-schema-validator';
import { flatSchemaCheck } from './flat-schema-check';
import { readDtoProperties, type DtoProperty } from './dto-properties';
import { codeGenerationRefusal } from './code-generation';

/** Rules whose JSON Schema form accepts nothing class-validator refuses. (Not minLength: validator.js
 * does not count variation selectors, so Ajv would accept strings class-validator finds too short.) */
const EXACT_RULES = new Set([
  'isString',
  'isInt',
  'isBoolean',
  'min',
  'max',
  'maxLength',
  'isIn',
  'isEnum',
  'isOptional',
]);
/** Rules that pin a value to a primitive: with one of them (and implicit conversion off) class-transformer
 * copies the value as it is, whatever the property's design type says. */
const PRIMITIVE_RULES = new Set(['isString', 'isInt', 'isBoolean', 'isIn', 'isEnum']);

export type FastAccept = (input: Record<string, unknown>) => boolean;

export function fastAcceptFor(dto: Function, schema: JsonSchemaObject): FastAccept | undefined {
  if ((schema as { additionalProperties?: unknown }).additionalProperties !== false) return undefined;
  const properties = readDtoProperties(dto);
  if (properties.length === 0 || !properties.every((p) => exact(dto, p))) return undefined;
  // Ajv only for a schema the direct check does not read (it is loaded on that first compile).
  const direct = flatSchemaCheck(schema);
  if (direct) return direct;
  const check = compileJsonSchema(schema);
  // Without code generation the schema is interpreted, which is no faster than class-validator: no fast path.
  if (codeGenerationRefusal() !== undefined) return undefined;
  return (input) => check(input).ok;
}

function exact(dto: Function, p: DtoProperty): boolean {
  if (p.transformType !== undefined || !p.validations.some((v) => PRIMITIVE_RULES.has(v.name ?? ''))) return false;
  if (p.field.type !== undefined || p.field.schema !== undefined) return false;
  if (transformerTouches(dto, p.name)) return false;
  return (
    p.validations.length > 0 &&
    p.validations.every(
      (v) =>
        EXACT_RULES.has(v.name ?? '') &&
        !v.each &&
        !v.always &&
        (v.groups?.length ?? 0) === 0 &&
        (v.name !== 'isIn' ||
          ((v.constraints?.[0] as unknown[] | undefined) ?? []).every((x) => typeof x !== 'object')) &&
        (v.name !== 'isEnum' ||
          Object.values((v.constraints?.[0] as object | undefined) ?? {}).every((x) => typeof x !== 'object')),
    )
  );
}

function transformerTouches(dto: Function, property: string): boolean {
  const s = defaultMetadataStorage;
  return (
    s.findTypeMetadata(dto, property) !== undefined ||
    s.findExposeMetadata(dto, property) !== undefined ||
    s.findExcludeMetadata(dto, property) !== undefined ||
    s.findTransformMetadatas(dto, property, TransformationType.PLAIN_TO_CLASS).length > 0 ||
    s.getStrategy(dto) !== 'none'
  );
}
