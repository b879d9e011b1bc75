/**
 * What `@UseGuards` / `@UseInterceptors` / `@UseFilters` record: the references as given (classes
 * or instances), on the class or on one method. Bootstrap resolves and checks them.
 */
import { MetadataKeys } from './keys';

export type PipelineKind = 'guards' | 'interceptors' | 'filters';

/** A class to resolve from the container, or a ready instance. */
export type PipelineRef = Function | object;

export interface PipelineRefs {
  readonly guards: readonly PipelineRef[];
  readonly interceptors: readonly PipelineRef[];
  readonly filters: readonly PipelineRef[];
}

export const EMPTY_PIPELINE: PipelineRefs = Object.freeze({
  guards: Object.freeze([]),
  interceptors: Object.freeze([]),
  filters: Object.freeze([]),
});

/**
 * The classes that carry refs (on themselves or a method), so that a handler with none (most) is
 * answered without six reflect-metadata lookups per call. Kept on globalThis so that two copies of
 * this module (a CommonJS and an ES build in one process) see the same decorations.
 */
const MARKED = Symbol.for('onemodelcontext:pipeline-classes');
function withPipelines(): WeakSet<Function> {
  const holder = globalThis as unknown as Record<symbol, WeakSet<Function> | undefined>;
  return (holder[MARKED] ??= new WeakSet());
}

function anyInChain(cls: Function): boolean {
  const marked = withPipelines();
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (marked.has(c as Function)) return true;
  }
  return false;
}

function key(kind: PipelineKind): symbol {
  return MetadataKeys[kind];
}

/** Appends refs to a class (`method` undefined) or to one of its methods. */
export function addPipelineRefs(
  kind: PipelineKind,
  cls: Function,
  method: string | undefined,
  refs: PipelineRef[],
): void {
  const own: PipelineRef[] =
    (method === undefined ? Reflect.getOwnMetadata(key(kind), cls) : Reflect.getOwnMetadata(key(kind), cls, method)) ??
    [];
  const next = Object.freeze([...own, ...refs]);
  withPipelines().add(cls);
  if (method === undefined) Reflect.defineMetadata(key(kind), next, cls);
  else Reflect.defineMetadata(key(kind), next, cls, method);
}

/**
 * The refs of a handler, outermost first: the class's (a parent's before its subclass's), then the
 * method's (none when `method` is undefined: a function a decorated class publishes). A plain
 * function handler has none.
 */
export function pipelineRefsOf(cls: Function, method: string | undefined): PipelineRefs {
  if (!anyInChain(cls)) return EMPTY_PIPELINE;
  const read = (kind: PipelineKind): readonly PipelineRef[] => {
    const chain: Function[] = [];
    for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      chain.unshift(c as Function);
    }
    const onClass = chain.flatMap((c) => (Reflect.getOwnMetadata(key(kind), c) as PipelineRef[] | undefined) ?? []);
    let onMethod: PipelineRef[] | undefined;
    for (let i = chain.length - 1; method !== undefined && i >= 0 && onMethod === undefined; i--) {
      onMethod = Reflect.getOwnMetadata(key(kind), chain[i]!, method);
    }
    return [...onClass, ...(onMethod ?? [])];
  };
  return { guards: read('guards'), interceptors: read('interceptors'), filters: read('filters') };
}
