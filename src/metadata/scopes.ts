/** What `@RequireScopes` records: scopes on a class (every handler it declares) or on one method. */
import { MetadataKeys } from './keys';

export function addRequiredScopes(cls: Function, method: string | undefined, scopes: readonly string[]): void {
  const key = MetadataKeys.scopes;
  const own: string[] =
    (method === undefined ? Reflect.getOwnMetadata(key, cls) : Reflect.getOwnMetadata(key, cls, method)) ?? [];
  const next = Object.freeze([...new Set([...own, ...scopes])]);
  if (method === undefined) Reflect.defineMetadata(key, next, cls);
  else Reflect.defineMetadata(key, next, cls, method);
}

/** Every scope a handler needs: its class chain's, then its method's (a subclass may override the method). */
export function requiredScopesOf(cls: Function, method: string | undefined): readonly string[] {
  const key = MetadataKeys.scopes;
  const found = new Set<string>();
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const s of (Reflect.getOwnMetadata(key, c) as string[] | undefined) ?? []) found.add(s);
  }
  if (method !== undefined) {
    for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      const own = Reflect.getOwnMetadata(key, c as Function, method) as string[] | undefined;
      if (own) {
        for (const s of own) found.add(s);
        break;
      }
    }
  }
  return [...found];
}
