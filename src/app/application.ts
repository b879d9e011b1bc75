/**
 * Bootstrap (DESIGN D7): walk the explicit provider list, build frozen definitions, validate them,
 * wire the dispatcher. Nothing here runs at import time.
 */
import { PageApprovalDesk } from '../approval/approval-desk';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { FrameworkError } from '../errors/framework-error';
import { assertSingleLibraryCopies } from './library-copies';
import type { ContextServerOptions } from '../server/core/server-options';
import type { Implementation } from '../protocol/types';
import { buildPrompt, buildResource, buildResourceTemplate, buildTool, explore } from '../registry/build-definitions';
import { buildSkills } from '../registry/build-skills';
import { assertAppLinked, assertAppsLinked } from './app-links';
import { Registry } from '../registry/registry';
import type {
  CompletionDefinition,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from '../registry/definitions';
import type { PromptOptions, ResourceOptions, ResourceTemplateOptions, ToolOptions } from '../metadata/options';
import { createRequestStateCodec, MemoryFlowStore, MemoryTokenBucket, type RequestStateCodec } from '../state';
import { resolveAppRequestStateOptions, type RequestStateOptions } from '../state/request-state-options';
import { createRandomPool } from '../state/random-pool';
import { serverCapabilities } from '../server/core/capabilities';
import { ContextServer } from '../server/context-server';
import type { ServerEndpoint } from '../server/server-endpoint';
import { Invoker } from '../server/core/invoker';
import { stderrLogger, toServerLogger } from '../server/core/server-logger';
import { UndeclaredForms } from '../server/replay/undeclared-forms';
import { relayThroughBus, type BusRelay } from '../server/fleet/bus-relay';
import { SHARED_STORES, TOKEN_BUCKETS, type SharedStores } from '../server/fleet/shared-stores';
import { RESOURCE_SERVER } from '../server/core/resource-server';
import type { Context } from '../context/context';
import { validateOptions } from '../config/validate-options';
import type { ConfigModule } from '../config/modules';
import { onCodeGenerationRefused } from '../schema/code-generation';
import { ApplicationOptions } from './application-options';
import { acceptApplicationOptions, acceptedApplicationOptions, identityOf } from './application-options-check';
import { registerModules } from './app-modules';
import { assertConstructible } from './injectable-check';
import { assertListedOnce, constructedClasses, registerProvider } from './providers';
import { keepDispatcher } from './dispatcher-of';
import { FleetChanges, type ChangeHandler } from './fleet-changes';
import { Pipelines } from '../server/pipeline/pipelines';
import { pipelineRefsOf, type PipelineRefs } from '../metadata/pipeline';

export { ApplicationOptions };
export type { ChangeHandler };

/** What `addDefinition` takes: a tool, prompt, resource or template definition. */
export type MountableDefinition =
  | ToolDefinition
  | PromptDefinition
  | ResourceDefinition
  | ResourceTemplateDefinition
  | CompletionDefinition;

/** The handler of a tool, prompt or resource registered at run time (`app.addTool({ name, handler })`). */
export type FunctionHandler<I> = (input: I, ctx: Context) => unknown;

export class McpApplication {
  readonly container: DependencyContainer;
  readonly options: Readonly<ContextServerOptions>;
  readonly info: Implementation;
  private readonly registry = new Registry();
  private readonly server: ContextServer;
  private readonly stateCodec: RequestStateCodec;
  private readonly shared?: SharedStores;
  private readonly busRelay?: BusRelay;
  private readonly changes = new FleetChanges();
  /** Unsubscribes this app's logger from the note that code generation was refused (schema/code-generation.ts). */
  private readonly stopValidationNotes: () => void;
  /** The requestState options the codec was built from (ContextServerModule's, or a RequestStateModule's). */
  private readonly requestState: Readonly<RequestStateOptions>;
  private readonly modules: readonly ConfigModule[];
  private starting?: Promise<void>;
  private readonly closers: Array<() => Promise<void>> = [];

  private constructor(input: ApplicationOptions) {
    assertReflectMetadata();
    // The bundle loads tsyringe on first use: read its container before the copies are counted.
    const root = rootContainer;
    assertSingleLibraryCopies();
    const options = acceptApplicationOptions(input)
      ? acceptedApplicationOptions(input)
      : validateOptions(ApplicationOptions, input, { label: 'ApplicationOptions' });
    this.container = (options.container ?? root).createChildContainer();
    this.modules = options.modules ?? [];
    const { server, requestState } = registerModules(this.container, this.modules);
    this.options = server;
    this.requestState = requestState;
    this.info = identityOf(options);

    assertListedOnce(options.providers);
    // Held: each list announced once, not once per item (nothing listens yet; a per-item announcement is
    // work per tool for nothing).
    this.registry.batch(() => {
      for (const p of options.providers) {
        registerProvider(this.container, p);
        if (typeof p === 'function') this.discover(p);
      }
    });
    assertConstructible(constructedClasses(options.providers), this.container);
    assertAppsLinked(this.registry);

    const shared = this.container.isRegistered(SHARED_STORES) ? this.container.resolve(SHARED_STORES) : undefined;
    this.shared = shared;
    if (!this.container.isRegistered(TOKEN_BUCKETS)) {
      this.container.register(TOKEN_BUCKETS, { useValue: shared?.tokenBuckets ?? new MemoryTokenBucket() });
    }
    const pipelines = this.pipelines(options);
    // The server name is the audience unless one is configured. The module's options are not checked again.
    const random = createRandomPool();
    const resolvedState = resolveAppRequestStateOptions(
      requestState,
      { audience: options.name, singleUseStore: shared?.singleUseStore },
      { random },
    );
    this.stateCodec = createRequestStateCodec(resolvedState, { random });
    const logger = server.logger ? toServerLogger(server.logger) : stderrLogger;
    const approvals = new PageApprovalDesk({
      codec: this.stateCodec,
      lifetimeMs: server.asks.approvalLifetimeMs,
      baseUrl: server.asks.approvalBaseUrl,
      store: shared?.approvalStore,
      log: (message, detail) => logger.warn(message, detail),
    });
    this.stopValidationNotes = onCodeGenerationRefused((note) => logger.warn(note));
    this.server = new ContextServer(
      {
        info: this.info,
        registry: this.registry,
        options: server,
        invoker: new Invoker(this.container),
        logger,
        forms: new UndeclaredForms(logger, server.undeclaredForms),
        capabilities: serverCapabilities({ skills: this.registry.hasSkills() }),
        engine: {
          ...server,
          sealer: this.stateCodec,
          logger,
          flows:
            server.flowStore ??
            shared?.flowStore ??
            new MemoryFlowStore({
              maxFlows: server.maxTrackedFlows,
              maxFlowsPerPrincipal: server.maxTrackedFlowsPerPrincipal,
              maxBytes: server.maxFlowStoreBytes,
              maxBytesPerPrincipal: server.maxFlowStoreBytesPerPrincipal,
            }),
          flowTtlMs: requestState.requestStateLifetime * 1000,
        },
        shared,
        pipelines,
        approvals,
      },
      {
        ephemeralStateKey: this.hasEphemeralStateKey,
        processLocalFlowStore: this.hasProcessLocalFlowStore,
        start: () => this.start(),
        resourceServer: this.container.isRegistered(RESOURCE_SERVER)
          ? this.container.resolve(RESOURCE_SERVER)
          : undefined,
        approvalPages: approvals,
        // The stores answer, and this instance replayed the fleet's run-time changes, before it serves.
        ready: async () => {
          await shared?.ready();
          await this.busRelay?.listening;
        },
      },
    );
    keepDispatcher(this, this.server);
    this.busRelay =
      shared?.notificationBus &&
      relayThroughBus(this.registry, shared.notificationBus, logger, (change) => this.changes.receive(change));
    if (this.busRelay) this.changes.attach(this.busRelay);
    // Heard by serveHttp's wait for `ready`: a bus that cannot subscribe or replay fails start-up too.
    this.busRelay?.listening.catch(() => undefined);
  }

  /**
   * Runs the modules' start-up work once (mounting the upstreams of a `BridgeModule`); `serveHttp`
   * and `serveStdio` call it before serving. A failure fails start-up and every later call.
   */
  start(): Promise<void> {
    this.starting ??= (async () => {
      for (const m of this.modules) if (m.start) this.closers.push(await m.start(this));
    })();
    return this.starting;
  }

  /**
   * Hands the task rounds still running here back (another instance resumes them), closes what the
   * modules started, stops relaying notifications and closes the shared stores (after the transports).
   */
  async close(): Promise<void> {
    await this.server.handBackTasks().catch(() => undefined);
    for (const close of this.closers.splice(0).reverse()) await close().catch(() => undefined);
    this.stopValidationNotes();
    await this.busRelay?.stop().catch(() => undefined);
    await this.shared?.close();
  }

  /** Builds and validates an application; mistakes throw a FrameworkError naming the class and method. */
  static create(options: ApplicationOptions): McpApplication {
    return new McpApplication(options);
  }

  /** What transports and adapters use of the application (`serveHttp(app)` reads it). */
  get endpoint(): ServerEndpoint {
    return this.server;
  }

  /** Whether the requestState key is ephemeral (no `requestStateKey` configured). */
  get hasEphemeralStateKey(): boolean {
    return this.requestState.requestStateKey === undefined;
  }

  /** Whether exactly-once records are per process (no shared `flowStore` configured). */
  get hasProcessLocalFlowStore(): boolean {
    return this.options.flowStore === undefined && this.shared?.flowStore === undefined;
  }

  /** Hex fingerprint of the requestState minting key, for health endpoints. */
  get stateKeyFingerprint(): string {
    return this.stateCodec.fingerprint;
  }

  /**
   * Registers a run-time change by name (at start-up, on every instance): `applyChange(name, args)`
   * runs `handler(args)` on every instance of a fleet, and instances that start later replay it.
   * Returns what unregisters the handler.
   */
  registerChange<A = unknown>(name: string, handler: ChangeHandler<A>): () => void {
    return this.changes.register(name, handler as ChangeHandler);
  }
  /** @internal Whether run-time changes travel through a fleet's bus (a bridge mount relists fleet-wide). */
  get inFleet(): boolean {
    return this.changes.inFleet;
  }
  /** Makes a registered change (JSON arguments): here at once, or through the fleet's bus on every instance. */
  applyChange(name: string, args?: unknown): Promise<void> {
    return this.changes.apply(name, args);
  }

  /**
   * A tool at run time; with `ui` it may link an app a decorated tool publishes (`ui.uri`), not
   * publish one. In a fleet, only inside a registered change (`registerChange`).
   */
  addTool<I = Record<string, unknown>>(spec: ToolOptions & { name: string; handler: FunctionHandler<I> }): void {
    this.changes.assertLocal('addTool');
    const def = buildTool(spec, spec.name, spec.name, { kind: 'function', fn: spec.handler as never });
    if (spec.ui && (spec.ui.html !== undefined || spec.ui.file !== undefined)) {
      throw new FrameworkError(
        'OMC_INVALID_DEFINITION',
        `${spec.name}: an app (ui.html / ui.file) is published by a decorated @Tool; app.addTool may only link one with ui.uri.`,
      );
    }
    assertAppLinked(this.registry, def);
    this.registry.addTool(def);
  }
  removeTool(name: string): boolean {
    this.changes.assertLocal('removeTool');
    return this.registry.removeTool(name);
  }
  addPrompt<I = Record<string, string>>(spec: PromptOptions & { name: string; handler: FunctionHandler<I> }): void {
    this.changes.assertLocal('addPrompt');
    this.registry.addPrompt(buildPrompt(spec, spec.name, spec.name, { kind: 'function', fn: spec.handler as never }));
  }
  removePrompt(name: string): boolean {
    this.changes.assertLocal('removePrompt');
    return this.registry.removePrompt(name);
  }
  addResource(spec: ResourceOptions & { handler: FunctionHandler<{ uri: string }> }): void {
    this.changes.assertLocal('addResource');
    this.registry.addResource(buildResource(spec, spec.uri, { kind: 'function', fn: spec.handler as never }));
  }
  removeResource(uri: string): boolean {
    this.changes.assertLocal('removeResource');
    return this.registry.removeResource(uri);
  }
  addResourceTemplate(
    spec: ResourceTemplateOptions & { handler: FunctionHandler<Record<string, string | string[]>> },
  ): void {
    this.changes.assertLocal('addResourceTemplate');
    this.registry.addResourceTemplate(
      buildResourceTemplate(spec, spec.uriTemplate, { kind: 'function', fn: spec.handler as never }),
    );
  }
  removeResourceTemplate(uriTemplate: string): boolean {
    this.changes.assertLocal('removeResourceTemplate');
    return this.registry.removeResourceTemplate(uriTemplate);
  }
  /**
   * @internal A definition built elsewhere (the bridge's mounted items): added to the live lists,
   * with the app-wide guards, interceptors and filters. Listeners hear it like any `addTool`.
   */
  addDefinition(def: MountableDefinition): void {
    if (def.kind === 'tool') this.registry.addTool(def);
    else if (def.kind === 'prompt') this.registry.addPrompt(def);
    else if (def.kind === 'resource') this.registry.addResource(def);
    else if (def.kind === 'completion') this.registry.addCompletion(def);
    else this.registry.addResourceTemplate(def);
  }
  /** @internal Runs `fn` (adds and removes) with one list_changed per changed list at its end. */
  batchDefinitions<T>(fn: () => T): T {
    return this.registry.batch(fn);
  }
  /** @internal Removes what `addDefinition` added (by its name, URI or URI template). */
  removeDefinition(def: MountableDefinition): boolean {
    if (def.kind === 'tool') return this.registry.removeTool(def.name);
    if (def.kind === 'prompt') return this.registry.removePrompt(def.name);
    if (def.kind === 'resource') return this.registry.removeResource(def.uri);
    if (def.kind === 'completion') return this.registry.removeCompletion(def.ref, def.argument);
    return this.registry.removeResourceTemplate(def.uriTemplate);
  }
  /** Tells subscribed clients that a resource's content changed. */
  notifyResourceUpdated(uri: string): void {
    this.registry.notifyResourceUpdated(uri);
  }

  /**
   * Guards, interceptors and filters: every class they name must be constructible, and every
   * definition's pipeline resolves now, so a class that is not a guard (or cannot be injected)
   * fails start-up, not a call.
   */
  private pipelines(options: Readonly<ApplicationOptions>): Pipelines {
    const appWide: PipelineRefs = {
      guards: options.guards ?? [],
      interceptors: options.interceptors ?? [],
      filters: options.filters ?? [],
    };
    const pipelines = new Pipelines(this.container, appWide);
    const defs = [
      ...this.registry.listTools(),
      ...this.registry.listPrompts(),
      ...this.registry.listResources(),
      ...this.registry.listResourceTemplates(),
      ...this.registry.listSkills(),
      ...this.registry.listDirectories(),
    ];
    const classes = new Set(Pipelines.classesOf(appWide));
    // A handler with no ref anywhere names no class and has no pipeline: its first call resolves it.
    const resolveNow = defs.filter((def) => !pipelines.isBare(def));
    for (const { source } of resolveNow) {
      if (!source.cls) continue;
      for (const cls of Pipelines.classesOf(pipelineRefsOf(source.cls, source.method))) classes.add(cls);
    }
    assertConstructible(classes, this.container);
    for (const def of resolveNow) pipelines.of(def);
    return pipelines;
  }

  private discover(cls: Function): void {
    const found = explore(cls);
    const skills = buildSkills(cls);
    const declares = Object.values(found).some((list) => list.length > 0) || skills.resources.length > 0;
    if (!declares) {
      // A plain service: one instance for the application (DESIGN D8).
      if (!this.container.isRegistered(cls as never)) this.container.registerSingleton(cls as new () => unknown);
      return;
    }
    found.tools.forEach((d) => this.registry.addTool(d));
    found.prompts.forEach((d) => this.registry.addPrompt(d));
    found.resources.forEach((d) => this.registry.addResource(d));
    found.resourceTemplates.forEach((d) => this.registry.addResourceTemplate(d));
    found.completions.forEach((d) => this.registry.addCompletion(d));
    skills.resources.forEach((d) => this.registry.addResource(d));
    skills.skills.forEach((d) => this.registry.addSkill(d));
    skills.directories.forEach((d) => this.registry.addDirectory(d));
  }
}

function assertReflectMetadata(): void {
  if (typeof (Reflect as { getMetadata?: unknown }).getMetadata !== 'function') {
    throw new FrameworkError(
      'OMC_REFLECT_METADATA_MISSING',
      "Reflect metadata API is missing: add `import 'reflect-metadata'` at the top of your entry file.",
    );
  }
}
