/**
 * The live set of tools, prompts, resources and completions. Bootstrap fills it from providers;
 * the app may add and remove entries at run time, and listeners hear about every change.
 */
import { FrameworkError } from '../errors/framework-error';
import type {
  CompletionDefinition,
  DirectoryDefinition,
  SkillDefinition,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definitions';

export type ListKind = 'tools' | 'prompts' | 'resources';
export type RegistryEvent = { type: 'listChanged'; list: ListKind } | { type: 'resourceUpdated'; uri: string };
export type RegistryListener = (event: RegistryEvent) => void;

/** What `watchResource` answers when nothing watches the URI: releasing it does nothing. */
export const NO_RELEASE = (): void => undefined;

export class Registry {
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly prompts = new Map<string, PromptDefinition>();
  private readonly resources = new Map<string, ResourceDefinition>();
  private readonly templates = new Map<string, ResourceTemplateDefinition>();
  private readonly completions = new Map<string, CompletionDefinition>();
  private readonly skills = new Map<string, SkillDefinition>();
  private readonly skillNames = new Map<string, SkillDefinition>();
  /** Several `@Skills` folders may share a prefix level (`skill://acme`): one definition each. */
  private readonly directories = new Map<string, DirectoryDefinition[]>();
  private readonly listeners = new Set<RegistryListener>();
  private readonly localListeners = new Set<RegistryListener>();
  /** Snapshots for listing, rebuilt lazily after a change so list calls allocate nothing. */
  private snapshots: Partial<Record<'tools' | 'prompts' | 'resources' | 'templates' | 'skills', readonly unknown[]>> =
    {};
  /** Lists changed inside `batch`, announced once when it ends. */
  private held?: Set<ListKind>;

  addTool(def: ToolDefinition): void {
    this.put(this.tools, def.name, def, 'tool');
    this.changed('tools');
  }
  removeTool(name: string): boolean {
    return this.tools.delete(name) && this.changed('tools');
  }
  addPrompt(def: PromptDefinition): void {
    this.put(this.prompts, def.name, def, 'prompt');
    this.changed('prompts');
  }
  removePrompt(name: string): boolean {
    return this.prompts.delete(name) && this.changed('prompts');
  }
  addResource(def: ResourceDefinition): void {
    this.put(this.resources, def.uri, def, 'resource');
    this.changed('resources');
  }
  removeResource(uri: string): boolean {
    return this.resources.delete(uri) && this.changed('resources');
  }
  addResourceTemplate(def: ResourceTemplateDefinition): void {
    this.put(this.templates, def.uriTemplate, def, 'resource template');
    this.changed('resources');
  }
  removeResourceTemplate(uriTemplate: string): boolean {
    return this.templates.delete(uriTemplate) && this.changed('resources');
  }
  addCompletion(def: CompletionDefinition): void {
    const key = completionKey(def.ref, def.argument);
    this.put(this.completions, key, def, 'completion');
  }

  removeCompletion(ref: CompletionDefinition['ref'], argument: string): boolean {
    return this.completions.delete(completionKey(ref, argument));
  }
  /** A skill, at start-up (its files are added as resources). Names are unique within a server. */
  addSkill(def: SkillDefinition): void {
    const clash = this.skillNames.get(def.name);
    if (clash) {
      throw new FrameworkError(
        'OMC_INVALID_SKILL',
        `Skill name ${JSON.stringify(def.name)} is published twice: ${clash.uri} (${clash.owner}) and ${def.uri} (${def.owner}).`,
      );
    }
    this.put(this.skills, def.uri, def, 'skill');
    this.skillNames.set(def.name, def);
    this.snapshots.skills = undefined;
  }
  addDirectory(def: DirectoryDefinition): void {
    const same = this.directories.get(def.uri) ?? [];
    this.directories.set(def.uri, [...same, def]);
  }
  skill(uri: string): SkillDefinition | undefined {
    return this.skills.get(uri);
  }
  listSkills(): readonly SkillDefinition[] {
    return (this.snapshots.skills ??= Object.freeze([...this.skills.values()])) as readonly SkillDefinition[];
  }
  hasSkills(): boolean {
    return this.skills.size > 0;
  }
  /** The definitions of a directory URI (one per folder that has it), or undefined. */
  directory(uri: string): readonly DirectoryDefinition[] | undefined {
    return this.directories.get(uri);
  }
  listDirectories(): readonly DirectoryDefinition[] {
    return [...this.directories.values()].flat();
  }

  tool(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }
  prompt(name: string): PromptDefinition | undefined {
    return this.prompts.get(name);
  }
  resource(uri: string): ResourceDefinition | undefined {
    return this.resources.get(uri);
  }
  /** The first template (in registration order) whose pattern matches the URI. */
  matchTemplate(
    uri: string,
  ): { def: ResourceTemplateDefinition; variables: Record<string, string | string[]> } | undefined {
    for (const def of this.templates.values()) {
      const variables = def.template.match(uri);
      if (variables) return { def, variables };
    }
    return undefined;
  }
  /** A subscriber for `uri`: tells the definition serving it (`watch`); the release is idempotent. */
  watchResource(uri: string): () => void {
    const def = this.resource(uri) ?? this.matchTemplate(uri)?.def;
    const release = def?.watch?.(uri);
    // Nothing watches it (most resources): one shared release, not a closure per subscribed URI.
    if (!release) return NO_RELEASE;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release!();
    };
  }
  completion(ref: CompletionDefinition['ref'], argument: string): CompletionDefinition | undefined {
    return this.completions.get(completionKey(ref, argument));
  }

  listTools(): readonly ToolDefinition[] {
    return (this.snapshots.tools ??= Object.freeze([...this.tools.values()])) as readonly ToolDefinition[];
  }
  listPrompts(): readonly PromptDefinition[] {
    return (this.snapshots.prompts ??= Object.freeze([...this.prompts.values()])) as readonly PromptDefinition[];
  }
  listResources(): readonly ResourceDefinition[] {
    return (this.snapshots.resources ??= Object.freeze([...this.resources.values()])) as readonly ResourceDefinition[];
  }
  listResourceTemplates(): readonly ResourceTemplateDefinition[] {
    return (this.snapshots.templates ??= Object.freeze([
      ...this.templates.values(),
    ])) as readonly ResourceTemplateDefinition[];
  }
  hasCompletions(): boolean {
    return this.completions.size > 0;
  }
  counts() {
    return { tools: this.tools.size, prompts: this.prompts.size, resources: this.resources.size + this.templates.size };
  }

  /** Tell listeners (legacy sessions, listen streams) that a resource's content changed. */
  notifyResourceUpdated(uri: string): void {
    this.emit({ type: 'resourceUpdated', uri });
  }

  subscribe(listener: RegistryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The same as calling subscribe's return: for holders that keep the listener, not a closure more. */
  unsubscribe(listener: RegistryListener): void {
    this.listeners.delete(listener);
  }

  /** Hears only changes made in this registry (not relayed ones): what a fleet's bus publishes. */
  onLocalChange(listener: RegistryListener): () => void {
    this.localListeners.add(listener);
    return () => this.localListeners.delete(listener);
  }

  /** A change another instance made: tell this registry's listeners, and publish nothing. */
  relay(event: RegistryEvent): void {
    tell(this.listeners, event);
  }

  private put<V>(map: Map<string, V>, key: string, def: V & { owner: string }, kind: string): void {
    const existing = map.get(key) as { owner: string } | undefined;
    if (existing) {
      throw new FrameworkError(
        'OMC_DUPLICATE_NAME',
        `Duplicate ${kind} ${JSON.stringify(key)}: declared by ${existing.owner} and by ${def.owner}.`,
      );
    }
    map.set(key, def);
  }

  /**
   * Runs `fn` with list changes held: each list it changed is announced once at the end, not once per
   * item (a bridge syncing 5 000 upstream tools sends each client one list_changed, not 5 000).
   */
  batch<T>(fn: () => T): T {
    if (this.held) return fn();
    const held = (this.held = new Set());
    try {
      return fn();
    } finally {
      this.held = undefined;
      for (const list of held) this.emit({ type: 'listChanged', list });
    }
  }

  private changed(list: ListKind): true {
    if (list === 'resources') {
      this.snapshots.resources = undefined;
      this.snapshots.templates = undefined;
    } else this.snapshots[list] = undefined;
    if (this.held) this.held.add(list);
    else this.emit({ type: 'listChanged', list });
    return true;
  }

  private emit(event: RegistryEvent): void {
    tell(this.listeners, event);
    tell(this.localListeners, event);
  }
}

function tell(listeners: Iterable<RegistryListener>, event: RegistryEvent): void {
  for (const l of listeners) {
    try {
      l(event);
    } catch {
      // A failing listener (a closed stream) must not stop the others.
    }
  }
}

function completionKey(ref: CompletionDefinition['ref'], argument: string): string {
  return JSON.stringify([ref.type, ref.type === 'ref/prompt' ? ref.name : ref.uri, argument]);
}
