/**
 * `mountServer(app, options)`: an upstream MCP server's tools, prompts, resources and templates
 * served by `app` under a namespace, kept current when the upstream announces `list_changed`, each
 * call routed (and its asks bridged) by relay.ts. The app's guards, interceptors, filters, rate
 * limits, scopes and telemetry apply to mounted items as to its own: they are ordinary definitions.
 */
import type { McpApplication } from '../app/application';
import { FRAMEWORK_CHANGE } from '../app/fleet-changes';
import type { ContextClient } from '../client/context-client';
import type { Page } from '../client/page';
import type { ChangeNotification } from '../protocol/listen';
import { resolveMountOptions, type MountInit, type MountOptions } from './mount-options';
import {
  mountPrompt,
  mountResource,
  mountTemplate,
  mountTool,
  mountCompletions,
  NamespaceMap,
  type Complete,
  type MountedDefinition,
  type Relay,
} from './mounted-items';
import type { CompletionDefinition } from '../registry/definitions';
import { ParkedCalls } from './parked-calls';
import { relay } from './relay';
import { Upstream } from './upstream';
import { UpstreamWatches } from './upstream-watches';

/** The upstream lists a mount follows. */
export type MountedList = 'tools' | 'prompts' | 'resources' | 'templates';
type ListName = MountedList;

/** One mounted item and the completions registered for its arguments. */
interface Mounted {
  def: MountedDefinition;
  completions: CompletionDefinition[];
  json: string;
}
const LISTS_OF: Record<string, ListName[]> = {
  'notifications/tools/list_changed': ['tools'],
  'notifications/prompts/list_changed': ['prompts'],
  'notifications/resources/list_changed': ['resources', 'templates'],
};

export class Mount {
  readonly options: Readonly<MountOptions>;
  private readonly parking: ParkedCalls;
  private readonly upstream: Upstream;
  private readonly ns: NamespaceMap;
  private readonly relay: Relay;
  private readonly complete: Complete;
  private readonly watches: UpstreamWatches;
  /** What this mount registered, per list, by name or URI, with its descriptor's JSON (to diff). */
  private readonly mounted: Record<ListName, Map<string, Mounted>> = {
    tools: new Map(),
    prompts: new Map(),
    resources: new Map(),
    templates: new Map(),
  };
  private readonly syncing = new Map<ListName, Promise<void>>();
  private readonly again = new Set<ListName>();
  /** In a fleet: the named change that makes every instance's mount relist (see `changed`). */
  private readonly relistChange: string;
  private readonly stopFleetRelist?: () => void;

  private constructor(
    private readonly app: McpApplication,
    init: MountInit,
  ) {
    this.options = resolveMountOptions(init);
    this.ns = new NamespaceMap(this.options.namespace, this.options.prefixNames);
    this.parking = new ParkedCalls(this.options);
    this.upstream = new Upstream(this.options, {
      up: async (client) => {
        await this.syncAll(client);
        this.watches.reopen();
      },
      changed: (n) => this.changed(n),
    });
    const route = { namespace: this.options.namespace, upstream: this.upstream, parking: this.parking };
    this.relay = (method, params, ctx) => relay(route, method, params, ctx);
    this.complete = (request) => this.upstream.live().complete(request);
    this.watches = new UpstreamWatches(
      () => this.upstream.live(),
      (uri) => this.app.notifyResourceUpdated(this.ns.uri(uri)),
      (m) => this.event(m),
    );
    this.relistChange = `${FRAMEWORK_CHANGE}bridge.relist:${this.options.namespace}`;
    if (app.inFleet) {
      this.stopFleetRelist = app.registerChange<unknown>(this.relistChange, (lists) =>
        this.relist(Array.isArray(lists) ? lists.filter((l): l is ListName => l in this.mounted) : []),
      );
    }
  }

  /** Connects to the upstream and registers its items; an upstream that cannot start fails here. */
  static async start(app: McpApplication, init: MountInit): Promise<Mount> {
    const mount = new Mount(app, init);
    await mount.upstream.start();
    return mount;
  }

  /** Legacy upstream calls waiting here for a caller's next round (or lingering after it). */
  get parkedCalls(): number {
    return this.parking.size;
  }

  /** Names (URIs, templates) currently mounted from the upstream, as our callers see them. */
  names(list: MountedList): string[] {
    return [...this.mounted[list].keys()];
  }

  /** Upstream resource URIs subscribed on behalf of our callers (held by at least one). */
  get subscribedUpstream(): string[] {
    return this.watches.uris;
  }

  /** Cancels parked calls and upstream subscriptions, unregisters every mounted item, closes the upstream. */
  async close(): Promise<void> {
    this.stopFleetRelist?.();
    this.parking.close();
    this.watches.close();
    await this.upstream.close();
    for (const list of Object.values(this.mounted)) {
      for (const mounted of list.values()) this.unregister(mounted);
      list.clear();
    }
  }

  private async syncAll(client: ContextClient): Promise<void> {
    await Promise.all((['tools', 'prompts', 'resources', 'templates'] as const).map((l) => this.sync(client, l)));
  }

  private changed(n: ChangeNotification): void {
    if (n.method === 'notifications/resources/updated' && typeof n.params?.uri === 'string') {
      this.app.notifyResourceUpdated(this.ns.uri(n.params.uri));
      return;
    }
    const lists = LISTS_OF[n.method] ?? [];
    if (lists.length === 0) return;
    if (!this.stopFleetRelist) return this.relist(lists);
    // In a fleet, every instance mounts the upstream on its own connection, and the upstream may tell
    // only this one (or only some): every instance relists, so they all serve the same items.
    this.app.applyChange(this.relistChange, lists).catch((e: unknown) => {
      this.event(`the other instances were not told to relist: ${e instanceof Error ? e.message : String(e)}`);
      this.relist(lists);
    });
  }

  /** Relists from this instance's upstream connection. */
  private relist(lists: readonly ListName[]): void {
    let client: ContextClient;
    try {
      client = this.upstream.live();
    } catch {
      return; // down: the resync after the restart sees the change
    }
    for (const list of lists) void this.sync(client, list).catch((e) => this.report(list, e));
  }

  /** One list at a time; a change announced during a sync runs one more sync after it. */
  private sync(client: ContextClient, list: ListName): Promise<void> {
    const running = this.syncing.get(list);
    if (running) {
      this.again.add(list);
      return running;
    }
    const run = this.resync(client, list).finally(() => {
      this.syncing.delete(list);
      if (this.again.delete(list)) void this.sync(client, list).catch((e) => this.report(list, e));
    });
    this.syncing.set(list, run);
    return run;
  }

  private async resync(client: ContextClient, list: ListName): Promise<void> {
    const caps = client.server.capabilities ?? {};
    const declared = list === 'tools' ? caps.tools : list === 'prompts' ? caps.prompts : caps.resources;
    const items = declared ? await this.fetch(client, list) : [];
    const next = new Map<string, Mounted>();
    const report = (m: string) => this.event(m);
    const completes = !!caps.completions;
    for (const item of items) {
      const def = this.decorate(this.build(list, item, report));
      if (!def || next.has(keyOf(def))) continue;
      const completions =
        completes && (def.kind === 'prompt' || def.kind === 'resourceTemplate')
          ? mountCompletions(def, item as never, this.complete)
          : [];
      next.set(keyOf(def), { def, completions, json: JSON.stringify(def.descriptor) });
    }
    // One list_changed for the whole sync, not one per item.
    this.app.batchDefinitions(() => this.apply(list, next));
  }

  private apply(list: ListName, next: Map<string, Mounted>): void {
    const current = this.mounted[list];
    for (const [key, was] of current) {
      if (next.get(key)?.json === was.json) continue;
      this.unregister(was);
      current.delete(key);
    }
    for (const [key, now] of next) {
      if (current.has(key)) continue;
      try {
        this.app.addDefinition(now.def);
        now.completions.forEach((c) => this.app.addDefinition(c));
        current.set(key, now);
      } catch (e) {
        this.unregister(now);
        this.event(`${list} ${key} not mounted: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  private build(list: ListName, item: unknown, report: (m: string) => void): MountedDefinition | undefined {
    if (typeof item !== 'object' || item === null) return undefined;
    const i = item as Record<string, unknown>;
    if (list === 'tools' && typeof i.name === 'string') return mountTool(this.ns, item as never, this.relay, report);
    if (list === 'prompts' && typeof i.name === 'string')
      return mountPrompt(this.ns, item as never, this.relay, report);
    if (list === 'resources' && typeof i.uri === 'string') return mountResource(this.ns, item as never, this.relay);
    if (list === 'templates' && typeof i.uriTemplate === 'string')
      return mountTemplate(this.ns, item as never, this.relay, report);
    report(`a malformed ${list} entry was skipped`);
    return undefined;
  }

  /** The mount's own guards, interceptors and filters on each item; subscriptions forwarded upstream. */
  private decorate(def: MountedDefinition | undefined): MountedDefinition | undefined {
    if (!def || def.source.kind !== 'function') return def;
    const { guards = [], interceptors = [], filters = [] } = this.options;
    const source =
      guards.length + interceptors.length + filters.length === 0
        ? def.source
        : { ...def.source, pipeline: { guards, interceptors, filters } };
    if (def.kind === 'resource' || def.kind === 'resourceTemplate') {
      return { ...def, source, watch: (uri: string) => this.watches.hold(this.ns.upstreamUri(uri)) };
    }
    return { ...def, source };
  }

  /** Every page up to `maxListItems` (a hostile upstream's endless or huge list is cut and reported). */
  private async fetch(client: ContextClient, list: ListName): Promise<unknown[]> {
    const page = (cursor?: string): Promise<Page<unknown>> =>
      list === 'tools'
        ? client.listToolsPage(cursor)
        : list === 'prompts'
          ? client.listPromptsPage(cursor)
          : list === 'resources'
            ? client.listResourcesPage(cursor)
            : client.listResourceTemplatesPage(cursor);
    const items: unknown[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const p = await page(cursor);
      items.push(...p.items);
      cursor = p.nextCursor;
      if (cursor !== undefined && seen.has(cursor)) break;
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined && items.length < this.options.maxListItems);
    if (items.length > this.options.maxListItems || cursor !== undefined) {
      this.event(`the upstream's ${list} list was cut at ${this.options.maxListItems} items (maxListItems)`);
    }
    return items.slice(0, this.options.maxListItems);
  }

  private unregister(mounted: Mounted): void {
    this.app.removeDefinition(mounted.def);
    for (const c of mounted.completions) this.app.removeDefinition(c);
  }

  private report(list: ListName, e: unknown): void {
    this.event(`listing ${list} failed: ${e instanceof Error ? e.message : String(e)}`);
  }

  private event(message: string): void {
    const m = `mounted server "${this.options.namespace}": ${message}`;
    if (this.options.onEvent) this.options.onEvent(m);
    else process.stderr.write(`[onemodelcontext bridge] ${m}\n`);
  }
}

function keyOf(def: MountedDefinition): string {
  return def.kind === 'resource' ? def.uri : def.kind === 'resourceTemplate' ? def.uriTemplate : def.name;
}

/** Mounts an upstream server into `app` (see `MountOptions`); resolves once its items are registered. */
export function mountServer(app: McpApplication, options: MountInit): Promise<Mount> {
  return Mount.start(app, options);
}
