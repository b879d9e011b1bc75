import 'reflect-metadata';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { FrameworkError } from '../errors/framework-error';
import { getFieldOptions, type FieldOptions } from './field-metadata';
import {
  indexedMetadataStorage,
  targetValidationMetadatas,
  type ValidationMetadata,
} from './validation-metadata-index';

export type { ValidationMetadata };

/** The validator name `@Field` registers so that Field-only properties are whitelisted and checked. */
export const FIELD_VALIDATOR_NAME = 'omcField';

/** Everything the decorators say about one property of a DTO, gathered from the three metadata stores. */
export interface DtoProperty {
  readonly dto: Function;
  readonly name: string;
  readonly designType: unknown;
  /** class-validator metadata, without the entry `@Field` registers. */
  readonly validations: readonly ValidationMetadata[];
  readonly field: FieldOptions;
  /** The class named by class-transformer's `@Type(() => X)`, if any. */
  readonly transformType: Function | undefined;
}

const NO_FIELD_OPTIONS: FieldOptions = Object.freeze({});

/** Properties in declaration order, ancestors' first (a redeclared property keeps its ancestor's place). */
export function readDtoProperties(dto: Function): DtoProperty[] {
  const metadatas = targetValidationMetadatas(indexedMetadataStorage(), dto, '', true, false);
  const fields = getFieldOptions(dto);
  const chain = ancestry(dto);
  // Plain indexed loops, no destructuring or spread: this runs once per DTO at start-up, as cold code,
  // where each iterator protocol step is a call.
  const entries: PropertyEntry[] = [];
  const byName = new Map<string, PropertyEntry>();
  for (let position = 0; position < metadatas.length; position++) {
    const metadata = metadatas[position]!;
    const depth = chain.indexOf(metadata.target as Function);
    const rank = (depth < 0 ? chain.length : depth) * 1e6 + position;
    let entry = byName.get(metadata.propertyName);
    if (entry === undefined) {
      entry = { name: metadata.propertyName, rank, validations: [] };
      byName.set(entry.name, entry);
      entries.push(entry);
    } else if (rank < entry.rank) entry.rank = rank;
    if (metadata.name !== FIELD_VALIDATOR_NAME) entry.validations.push(metadata);
  }
  // One class in the chain: every rank is its position, so first appearance is the order.
  if (chain.length > 1) entries.sort((a, b) => a.rank - b.rank);
  const typed = mayHaveTypeMetadata(chain);
  const properties: DtoProperty[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const { name, validations } = entries[i]!;
    properties[i] = {
      dto,
      name,
      designType: designTypeOf(chain, name),
      validations,
      field: fields.get(name) ?? NO_FIELD_OPTIONS,
      transformType: typed ? readTransformType(dto, name) : undefined,
    };
  }
  return properties;
}

interface PropertyEntry {
  readonly name: string;
  rank: number;
  readonly validations: ValidationMetadata[];
}

/**
 * `design:type` of a property, nearest class first. Own lookups along the chain we already walked:
 * reflect-metadata's inherited lookup also asks Object.prototype, through its provider registry.
 */
function designTypeOf(chain: readonly Function[], property: string): unknown {
  for (let i = chain.length - 1; i >= 0; i--) {
    const type: unknown = Reflect.getOwnMetadata('design:type', chain[i]!.prototype as object, property);
    if (type !== undefined) return type;
  }
  return undefined;
}

/** Root ancestor first, the class itself last. */
function ancestry(dto: Function): Function[] {
  const chain: Function[] = [];
  for (let current: unknown = dto; typeof current === 'function' && current !== Function.prototype; ) {
    chain.unshift(current);
    current = Object.getPrototypeOf(current);
  }
  return chain;
}

/**
 * Whether class-transformer holds `@Type` metadata for a class of the chain (or for one class): one look at its private
 * map per DTO instead of an ancestor walk per property. A storage of another shape: assume it does.
 */
export function mayHaveTypeMetadata(chain: readonly Function[] | Function): boolean {
  const map = (defaultMetadataStorage as unknown as { _typeMetadatas?: unknown })._typeMetadatas;
  if (!(map instanceof Map)) return true;
  return typeof chain === 'function' ? map.has(chain) : chain.some((c) => map.has(c));
}

function readTransformType(dto: Function, property: string): Function | undefined {
  const metadata = defaultMetadataStorage.findTypeMetadata(dto, property);
  if (!metadata) return undefined;
  if (metadata.options?.discriminator) {
    throw new FrameworkError(
      'OMC_SCHEMA_UNSUPPORTED',
      `${dto.name}.${property}: @Type with a discriminator (polymorphic nested DTOs) has no schema here; ` +
        `describe it with @Field({ schema: { oneOf: [...] } }) or split the property.`,
    );
  }
  return metadata.typeFunction();
}
