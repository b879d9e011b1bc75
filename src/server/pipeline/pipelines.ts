/**
 * Resolves each definition's guards, interceptors and filters (the app-wide lists, then the class's,
 * then the method's) once, and hands the server a Pipeline, or undefined when there is none: a
 * handler without any runs exactly as before.
 */
import type { DependencyContainer } from 'tsyringe';
import { Context } from '../../context/context';
import { FrameworkError } from '../../errors/framework-error';
import { EMPTY_PIPELINE, pipelineRefsOf, type PipelineRef, type PipelineRefs } from '../../metadata/pipeline';
import { MetadataStore } from '../../metadata/store';
import { isContextType, type HandlerSource } from '../../registry/definitions';
import { PRINCIPAL } from '../core/invoker';
import { Pipeline, type Make } from './pipeline';

const METHOD = { guards: 'canActivate', interceptors: 'intercept', filters: 'catch' } as const;
const NAME = { guards: 'a guard', interceptors: 'an interceptor', filters: 'an exception filter' } as const;
const DECORATOR = { guards: '@UseGuards', interceptors: '@UseInterceptors', filters: '@UseFilters' } as const;
const RUNS = new Set(['everyRound', 'firstRound', 'completion', undefined]);

type Kind = keyof typeof METHOD;
interface Handler {
  readonly source: HandlerSource;
  readonly owner: string;
}

export class Pipelines {
  private readonly byDefinition = new WeakMap<object, Pipeline | null>();
  private readonly makers = new Map<PipelineRef, Make<object>>();
  private readonly noAppWide: boolean;

  constructor(
    private readonly root: DependencyContainer,
    private readonly appWide: PipelineRefs = EMPTY_PIPELINE,
  ) {
    this.noAppWide = appWide.guards.length + appWide.interceptors.length + appWide.filters.length === 0;
  }

  /**
   * Whether a definition has no guard, interceptor or filter anywhere (most): its pipeline is none and
   * there is nothing to check, so bootstrap leaves it to the first call instead of caching a null now.
   */
  isBare(def: Handler): boolean {
    return this.noAppWide && ownRefs(def.source) === EMPTY_PIPELINE;
  }

  /** The definition's pipeline (resolved on first use; bootstrap asks for every definition). */
  of(def: Handler): Pipeline | undefined {
    let found = this.byDefinition.get(def);
    if (found === undefined) {
      found = this.build(def);
      this.byDefinition.set(def, found);
    }
    return found ?? undefined;
  }

  /** The classes a set of refs names (for the start-up constructibility check). */
  static classesOf(refs: PipelineRefs): Function[] {
    if (refs === EMPTY_PIPELINE) return [];
    return [...refs.guards, ...refs.interceptors, ...refs.filters].filter((r) => typeof r === 'function');
  }

  private build(def: Handler): Pipeline | null {
    const own = ownRefs(def.source);
    if (own === EMPTY_PIPELINE && this.noAppWide) return null;
    const refs = (kind: Kind) => [...this.appWide[kind], ...own[kind]];
    const guards = refs('guards');
    const interceptors = refs('interceptors');
    const filters = refs('filters').reverse();
    if (guards.length + interceptors.length + filters.length === 0) return null;
    const make = (kind: Kind) => (ref: PipelineRef) => this.maker(kind, ref, def.owner);
    return new Pipeline(
      guards.map(make('guards')) as never,
      interceptors.map(make('interceptors')) as never,
      filters.map(make('filters')) as never,
    );
  }

  /** How to get an instance of a ref, checked once: an instance as is; a class as the Invoker builds handlers. */
  private maker(kind: Kind, ref: PipelineRef, owner: string): Make<object> {
    let make = this.makers.get(ref);
    if (make) return make;
    const method = METHOD[kind];
    const where = `${owner}: ${DECORATOR[kind]}`;
    if (typeof ref === 'function') {
      if (typeof (ref.prototype as Record<string, unknown> | undefined)?.[method] !== 'function') {
        const name = ref.name || 'a class';
        throw invalid(`${where} lists ${name}, which is not ${NAME[kind]}: it has no ${method}() method.`);
      }
      const cls = ref as new () => object;
      const shared = !this.root.isRegistered(cls, true) && !perRequest(cls);
      make = this.classMaker(cls, where);
      if (kind === 'interceptors' && shared) checkRuns(make(() => undefined, undefined) as { runs?: unknown }, where);
    } else if (isObjectWith(ref, method)) {
      if (kind === 'interceptors') checkRuns(ref as { runs?: unknown }, where);
      const instance = ref;
      make = Object.assign(() => instance, { shared: instance });
    } else {
      const what = `${NAME[kind]} class or instance with a ${method}() method`;
      throw invalid(`${where} lists ${describe(ref)}: expected ${what}.`);
    }
    this.makers.set(ref, make);
    return make;
  }

  /**
   * A class is one instance for the app (NestJS's default), built now, unless it is registered
   * (the container's lifecycle decides) or its own constructor takes the request's Context or
   * PRINCIPAL: then it is built per request in a child container holding them, like a handler class.
   */
  private classMaker(cls: new () => object, where: string): Make<object> {
    if (this.root.isRegistered(cls, true)) return () => this.root.resolve(cls);
    if (perRequest(cls)) {
      return (context, principal) => {
        const scope = this.root.createChildContainer();
        const ctx = context();
        if (ctx) scope.register(Context, { useValue: ctx });
        scope.register(PRINCIPAL, { useValue: principal });
        return scope.resolve(cls);
      };
    }
    let one: object;
    try {
      one = this.root.resolve(cls);
    } catch (e) {
      throw new FrameworkError(
        'OMC_UNRESOLVABLE_DEPENDENCY',
        `${where}: ${cls.name} could not be built at start-up (${e instanceof Error ? e.message.split('\n')[0] : String(e)}). One that needs the request's Context takes \`ctx: Context\` in its own constructor.`,
        { cause: e },
      );
    }
    return Object.assign(() => one, { shared: one });
  }

}

/** A request-scoped interceptor cannot be built before a request: its `runs` is read per call. */
/** Whether a class's own constructor takes the request (its Context, or the PRINCIPAL token). */
function perRequest(cls: Function): boolean {
  return (
    (MetadataStore.constructorParamTypes(cls) ?? []).some(isContextType) ||
    MetadataStore.injectedTokens(cls).includes(PRINCIPAL)
  );
}

function isObjectWith(ref: unknown, method: string): ref is object {
  return typeof ref === 'object' && ref !== null && typeof (ref as Record<string, unknown>)[method] === 'function';
}

function checkRuns(instance: { runs?: unknown }, where: string): void {
  if (RUNS.has(instance.runs as string | undefined)) return;
  throw invalid(`${where}: runs must be 'everyRound', 'firstRound' or 'completion', got ${describe(instance.runs)}.`);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.slice(0, 40));
  if (typeof v === 'object') return `an object without the method (${v.constructor?.name ?? 'Object'})`;
  return typeof v;
}

function invalid(message: string): FrameworkError {
  return new FrameworkError('OMC_INVALID_DEFINITION', message);
}

/** The refs a handler carries itself (its class's and method's, or a function's own), before the app-wide ones. */
function ownRefs(source: HandlerSource): PipelineRefs {
  if (source.kind === 'method' || source.cls) return pipelineRefsOf(source.cls!, source.method);
  return source.pipeline ?? EMPTY_PIPELINE;
}
