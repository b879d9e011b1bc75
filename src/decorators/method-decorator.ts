import type { MethodEntry } from '../metadata/options';

/** Builds a method decorator that records `{method, options}` through `record`. */
export function recordingDecorator<O>(
  record: (target: object, entry: MethodEntry<O>) => void,
  options: O,
): MethodDecorator {
  return (target, propertyKey) => {
    if (typeof propertyKey !== 'string') return;
    record(target, { method: propertyKey, options: Object.freeze({ ...options }) as O });
  };
}
