/**
 * Class field initialisers (`age = 30`) act as defaults at validation time (exposeDefaultValues), so the
 * schema advertises them too. Only JSON values count; a constructor that throws simply yields none.
 */
export function readInitialiserDefaults(dto: Function): ReadonlyMap<string, unknown> {
  return readInstanceFields(dto).defaults;
}

/** The fields a fresh instance has (initialised or declared), and those of them that are JSON defaults. */
export interface InstanceFields {
  readonly names: readonly string[];
  readonly defaults: ReadonlyMap<string, unknown>;
}

/** Shared by every class with no JSON default (most): a Map per DTO is kilobytes per thousand at start-up. */
const NO_DEFAULTS: ReadonlyMap<string, unknown> = new Map();
const NO_FIELDS: InstanceFields = Object.freeze({ names: Object.freeze([]), defaults: NO_DEFAULTS });

/** One instance, read once: what the schema's defaults and the undescribed-field check both need. */
export function readInstanceFields(dto: Function): InstanceFields {
  let instance: object;
  try {
    instance = new (dto as new () => object)();
  } catch {
    return NO_FIELDS;
  }
  const names = Object.keys(instance);
  if (names.length === 0) return NO_FIELDS; // most DTOs (decorated declarations leave no own field)
  let defaults: Map<string, unknown> | undefined;
  for (const key of names) {
    const value = (instance as Record<string, unknown>)[key];
    if (value !== undefined && isJsonValue(value)) (defaults ??= new Map()).set(key, value);
  }
  return { names, defaults: defaults ?? NO_DEFAULTS };
}

function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value as object).every(isJsonValue);
  }
  return false;
}
