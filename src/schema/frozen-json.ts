/**
 * Copies a JSON-like value and freezes every level, so a cached schema can be shared without defensive copies.
 * Key insertion order is kept (JSON.stringify of the copy equals that of the original).
 */
export function deepFrozenCopy<T>(value: T): T {
  return freezeCopy(value, new Set()) as T;
}

function freezeCopy(value: unknown, ancestors: Set<object>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.has(value)) throw new TypeError('a schema must not contain a reference cycle');
  ancestors.add(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    copy = value.map((item) => freezeCopy(item, ancestors));
  } else {
    const target: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = freezeCopy((value as Record<string, unknown>)[key], ancestors);
      // defineProperty, not assignment, for "__proto__": it must stay a plain key, never a prototype switch.
      if (key === '__proto__')
        Object.defineProperty(target, key, { value: item, enumerable: true, writable: true, configurable: true });
      else target[key] = item;
    }
    copy = target;
  }
  ancestors.delete(value);
  return Object.freeze(copy);
}
