/** Reads a handler method's parameter types and finds its input DTO. */
import { FrameworkError } from '../errors/framework-error';
import { MetadataStore } from '../metadata/store';
import { isContextType } from './definitions';

const NOT_A_DTO = new Set<unknown>([Object, String, Number, Boolean, Array, Promise, Function, Symbol, undefined]);

export function methodParamTypes(cls: Function, method: string): readonly Function[] {
  const fn = (cls.prototype as Record<string, unknown>)[method];
  if (typeof fn !== 'function') {
    throw new FrameworkError('OMC_INVALID_DEFINITION', `${cls.name}.${method} is not a method.`);
  }
  const types = MetadataStore.paramTypes(cls, method);
  if (types === undefined) {
    if (fn.length === 0) return [];
    throw new FrameworkError(
      'OMC_DECORATOR_METADATA_MISSING',
      `${cls.name}.${method}: no design:paramtypes metadata. Enable "experimentalDecorators" and "emitDecoratorMetadata" in tsconfig.json and compile with tsc or ts-jest (esbuild/tsx drop decorator metadata).`,
    );
  }
  return Object.freeze([...types]);
}

/** The first parameter whose type is a user class (not Context, not a built-in), if any. */
export function inferInputDto(paramTypes: readonly Function[]): Function | undefined {
  return paramTypes.find((t) => !NOT_A_DTO.has(t) && !isContextType(t) && typeof t === 'function' && t !== AbortSignal);
}

/** True when a parameter other than Context has no usable class type (interface, any, object literal). */
export function hasUntypedInput(paramTypes: readonly Function[]): boolean {
  return paramTypes.some((t) => t === Object && !isContextType(t));
}
