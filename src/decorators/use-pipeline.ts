/**
 * `@UseGuards`, `@UseInterceptors`, `@UseFilters` (NestJS's names): on a class (every tool, prompt,
 * resource and template it declares) or on one handler method. They only record the references;
 * `McpApplication.create` resolves each from the container and checks it implements its interface.
 * Each takes classes (resolved from the container) or ready instances.
 */
import { addPipelineRefs, type PipelineKind, type PipelineRef } from '../metadata/pipeline';

/** A class whose instances have method `M`, or such an instance (the parameter types are the server's). */
type Ref<M extends string> = (abstract new (...args: never[]) => Record<M, Function>) | Record<M, Function>;

export type GuardRef = Ref<'canActivate'>;
export type InterceptorRef = Ref<'intercept'>;
export type FilterRef = Ref<'catch'>;

function recorder(kind: PipelineKind, refs: PipelineRef[]): ClassDecorator & MethodDecorator {
  return ((target: object, propertyKey?: string | symbol) => {
    if (propertyKey === undefined) addPipelineRefs(kind, target as Function, undefined, refs);
    else if (typeof propertyKey === 'string') {
      addPipelineRefs(kind, (target as { constructor: Function }).constructor, propertyKey, refs);
    }
  }) as ClassDecorator & MethodDecorator;
}

/** Guards that decide whether a caller may use (and see) the handler; they run before every round. */
export function UseGuards(...guards: GuardRef[]): ClassDecorator & MethodDecorator {
  return recorder('guards', guards);
}

/** Interceptors around the handler: every round, or once per flow (see `Interceptor.runs`). */
export function UseInterceptors(...interceptors: InterceptorRef[]): ClassDecorator & MethodDecorator {
  return recorder('interceptors', interceptors);
}

/** Exception filters that map what the handler (or an interceptor, or a guard) threw. */
export function UseFilters(...filters: FilterRef[]): ClassDecorator & MethodDecorator {
  return recorder('filters', filters);
}
