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

const PRIMITIVE_NAMES = new Map<unknown, string>([
  [String, 'a string'],
  [Number, 'a number'],
  [Boolean, 'a boolean'],
  [Array, 'an array'],
  [Function, 'a function'],
  [Symbol, 'a symbol'],
  [Promise, 'a Promise'],
  [undefined, 'void/undefined'],
]);

export type HandlerKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

const RECEIVES: Record<HandlerKind, string> = {
  tool: 'a tool receives its arguments as one DTO class (e.g. `class GreetArgs { @IsString() name!: string }` and `greet(args: GreetArgs)`)',
  prompt:
    'a prompt receives its arguments as one DTO class (e.g. `class TopicArgs { @IsString() topic!: string }` and `plan(args: TopicArgs)`)',
  resource: 'a resource receives `{ uri }` as one object (e.g. `read({ uri }: { uri: string })`)',
  resourceTemplate: 'a resource template receives its variables as one object (e.g. `item({ id }: { id: string })`)',
};

/**
 * Every parameter of a handler must be something the invoker can supply: the Context, the abort
 * signal, or the one input (DTO class or object). Anything else (`greet(name: string)`) would
 * silently receive the whole arguments object, so it stops start-up naming the method.
 */
export function assertHandlerParams(owner: string, kind: HandlerKind, paramTypes: readonly Function[]): void {
  // A plain loop, and an array only for a second input: this runs once per handler at start-up.
  let first = 0;
  let inputs: number[] | undefined;
  for (let i = 0; i < paramTypes.length; i++) {
    const t = paramTypes[i];
    if (t === AbortSignal || isContextType(t)) continue;
    const primitive = PRIMITIVE_NAMES.get(t);
    if (primitive !== undefined) {
      throw new FrameworkError(
        'OMC_UNSUPPORTED_PARAMETER',
        `${owner}: parameter ${i + 1} is typed as ${primitive}, which nothing supplies; ${RECEIVES[kind]}, plus optionally \`ctx: Context\` and \`signal: AbortSignal\`.`,
      );
    }
    if (first === 0) first = i + 1;
    else (inputs ??= [first]).push(i + 1);
  }
  if (inputs) {
    throw new FrameworkError(
      'OMC_UNSUPPORTED_PARAMETER',
      `${owner}: parameters ${inputs.join(' and ')} would all receive the same input; ${RECEIVES[kind]}, plus optionally \`ctx: Context\` and \`signal: AbortSignal\`.`,
    );
  }
}
