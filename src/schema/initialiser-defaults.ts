/**
 * Class field initialisers (`age = 30`) act as defaults at validation time (exposeDefaultValues), so the
 * schema advertises them too. Only JSON values count; a constructor that throws simply yields none.
 */
export function readInitialiserDefaults(dto: Function): ReadonlyMap<string, unknown> {
  const defaults = new Map<string, unknown>();
  let instance: object;
  try {
    instance = new (dto as new () => object)();
  } catch {
    return defaults;
  }
  for (const [key, value] of Object.entries(instance)) {
    if (value !== undefined && isJsonValue(value)) defaults.set(key, value);
  }
  return defaults;
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
