/**
 * class-validator's metadata lookup in time proportional to the class's own ancestry.
 *
 * class-validator 0.15.1 keeps its metadata in a Map keyed by target, yet its
 * `getTargetValidationMetadatas` looks for inherited metadata by testing every registered target
 * (`prototype instanceof key`): one lookup costs as much as the app has DTO classes. Bootstrap asks once
 * per DTO (start-up quadratic in the app's size) and `validate()` asks once per object on every call.
 * `targetValidationMetadatas` answers the same question with one `Map.get` per ancestor, walking the
 * class's own prototype chain; `indexedMetadataStorage()` installs it on the storage instance so that
 * class-validator's own `validate()` uses it too. Nothing is cached: metadata added later is seen.
 */
import { getMetadataStorage, type MetadataStorage } from 'class-validator';

export type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
type Lookup = MetadataStorage['getTargetValidationMetadatas'];

/** The one private field we read; its shape is checked before anything relies on it. */
interface StorageInternals {
  validationMetadatas?: unknown;
}

const INSTALLED = Symbol.for('onemodelcontext:indexed-validation-lookup');

function metadataMap(storage: MetadataStorage): Map<unknown, ValidationMetadata[]> | undefined {
  const map = (storage as unknown as StorageInternals).validationMetadatas;
  return map instanceof Map ? (map as Map<unknown, ValidationMetadata[]>) : undefined;
}

/**
 * The same answer as `storage.getTargetValidationMetadatas(target, schema, always, strictGroups, groups)`:
 * the target's own metadata, then its ancestors' (root first, the order their decorators ran in), an
 * inherited entry dropped where the target redeclares the same property and rule type.
 */
export function targetValidationMetadatas(
  storage: MetadataStorage,
  target: Function,
  schema: string,
  always?: boolean,
  strictGroups?: boolean,
  groups?: string[],
): ValidationMetadata[] {
  const map = metadataMap(storage);
  if (!map) return storage.getTargetValidationMetadatas(target, schema, always ?? false, strictGroups ?? false, groups);
  // class-validator's own include / exclude rules, in its order.
  const wanted = (m: ValidationMetadata): boolean => {
    const included = m.always !== undefined ? m.always : m.groups && m.groups.length ? false : always;
    if (included) return true;
    if (strictGroups && !(groups && groups.length) && m.groups && m.groups.length) return false;
    if (groups && groups.length > 0) return !!m.groups && !!m.groups.find((g) => groups.indexOf(g) !== -1);
    return true;
  };
  const own = (map.get(target) ?? []).filter((m) => (m.target === target || m.target === schema) && wanted(m));
  const inherited: ValidationMetadata[] = [];
  for (const ancestor of ancestorsOf(target)) {
    for (const m of map.get(ancestor) ?? []) {
      if (typeof m.target === 'string' || !wanted(m)) continue;
      if (own.some((o) => o.propertyName === m.propertyName && o.type === m.type)) continue;
      inherited.push(m);
    }
  }
  return inherited.length ? own.concat(inherited) : own;
}

/** The classes whose instances `target`'s instances also are (what `prototype instanceof key` tests), root first. */
function ancestorsOf(target: Function): Function[] {
  const found: Function[] = [];
  const start = (target as { prototype?: unknown }).prototype;
  if (start === null || (typeof start !== 'object' && typeof start !== 'function')) return found;
  for (let proto = Object.getPrototypeOf(start) as object | null; proto; proto = Object.getPrototypeOf(proto)) {
    const ctor = (proto as { constructor?: unknown }).constructor;
    if (typeof ctor === 'function' && ctor.prototype === proto && ctor !== target) found.unshift(ctor);
  }
  return found;
}

/**
 * The rules registered on `target` itself, in registration order: all that `targetValidationMetadatas`
 * reads for a class that extends none, unless something is registered on Object (then undefined, as for
 * a storage of another shape).
 */
export function ownValidationMetadatas(target: Function): readonly ValidationMetadata[] | undefined {
  const map = metadataMap(getMetadataStorage());
  if (!map || map.has(Object)) return undefined;
  return map.get(target) ?? [];
}

/**
 * class-validator's global storage with the indexed lookup installed (once, as an own property of the
 * instance, so `validate()` and `validateSync()` use it). A storage of another shape is left as it is.
 */
export function indexedMetadataStorage(): MetadataStorage {
  const storage = getMetadataStorage();
  const marked = storage as unknown as Record<symbol, unknown>;
  if (marked[INSTALLED] || !metadataMap(storage)) return storage;
  const lookup: Lookup = (target, schema, always, strictGroups, groups) =>
    targetValidationMetadatas(storage, target, schema, always, strictGroups, groups);
  Object.defineProperty(storage, 'getTargetValidationMetadatas', { value: lookup, configurable: true, writable: true });
  Object.defineProperty(storage, INSTALLED, { value: true });
  return storage;
}
