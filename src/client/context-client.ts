/**
 * `ContextClient` (DESIGN D11): one client for both eras over Streamable HTTP, stdio or in memory.
 * It negotiates the era, drives 2026 input rounds, answers legacy server requests with the same
 * handlers, and exposes the typed MCP surface.
 */
import type { JsonObject } from '../protocol/jsonrpc';
import type { LogLevel } from '../protocol/meta';
import type { CompleteRequest, CompleteResult } from '../protocol/completion';
import type { ListenFilter } from '../protocol/listen';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/listings';
import type { CallToolResult, ClientCapabilities, GetPromptResult, ReadResourceResult } from '../protocol/types';
import type { Era } from '../protocol/versions';
import { recordCallInfo } from './call-info';
import { ClientSession } from './client-session';
import { HttpTransport } from './http/http-transport';
import { answerInputRound, type InputHandlers } from './input-handlers';
import { MemoryTransport } from './memory-transport';
import { driveInputRounds } from './mrtr-driver';
import { followTask, type TaskStatusView } from './task-follower';
import { discover, negotiate, reinitialize } from './negotiate';
import {
  resolveClientOptions,
  type ContextClientInit,
  type ContextClientOptions,
  type LogMessage,
  type ProgressCallback,
} from './options';
import { StdioTransport } from './stdio-transport';
import { validateTarget, type AppTarget, type ClientTarget, type TransportTarget } from './targets';
import { listen, type Subscription } from './subscription';
import type { ClientTransport } from './transport';
import type { Page } from './page';
import type { ServerDescription } from './server-description';
import { SkillsClient } from './skills';
import { abortableSleep } from './abortable-sleep';

export type { AppTarget, ClientTarget, TransportTarget };

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  /** Return an `input_required` result (or a task handle) as it is, unanswered, unfollowed (2026 only). */
  manual?: boolean;
  /** Each status a task goes through, when the call became one (tasks.md). */
  onTaskStatus?: (task: TaskStatusView) => void;
  /**
   * Answers this call's asks instead of the client's handlers (a bridge relays each call's asks to
   * its own caller). Legacy asks are attributed by the response stream that carried them (HTTP), or
   * to the only call in flight with its own handlers (stdio names no related request).
   */
  input?: InputHandlers;
  /** Log messages sent on this call's response stream, instead of the client's `onLog`. */
  onLog?: (message: LogMessage) => void;
}

/** What `round` takes beyond a call's options. */
export interface RoundOptions {
  /** Per-request timeout (0: none), instead of `requestTimeoutMs`. */
  timeoutMs?: number;
  /** 2026: the capabilities this round declares instead of the client's (a bridge forwards its caller's). */
  capabilities?: ClientCapabilities;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

type ListKey = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

export class ContextClient {
  private skillsClient?: SkillsClient;

  private constructor(
    private readonly session: ClientSession,
    private description: ServerDescription,
  ) {
    // A legacy session the server lost (404) is replaced at once, as the spec asks of clients.
    session.renewSession = async () => {
      this.description = await reinitialize(session);
    };
  }

  /** Connects, chooses the era (see `protocolVersion`), and resolves once requests can be sent. */
  static async connect(target: ClientTarget, options: ContextClientInit = {}): Promise<ContextClient> {
    const resolved = resolveClientOptions(options);
    const transport = createTransport(target);
    const session = new ClientSession(transport, resolved);
    await transport.start(session.sink);
    try {
      return new ContextClient(session, await negotiate(session));
    } catch (e) {
      session.close();
      await transport.close();
      throw e;
    }
  }

  get era(): Era {
    return this.session.era;
  }
  get protocolVersion(): string {
    return this.session.protocolVersion;
  }
  get server(): ServerDescription {
    return this.description;
  }
  get options(): Readonly<ContextClientOptions> {
    return this.session.options;
  }
  /** The transport underneath (stdio exposes `stderrText` and `pid`). */
  get transport(): ClientTransport {
    return this.session.transport;
  }

  async listTools(options?: RequestOptions): Promise<Tool[]> {
    return this.all((c) => this.listToolsPage(c, options));
  }
  async listToolsPage(cursor?: string, options?: RequestOptions): Promise<Page<Tool>> {
    const page = await this.page<Tool>('tools/list', 'tools', cursor, options);
    return { ...page, items: this.session.catalog.admit(page.items) };
  }
  async listPrompts(options?: RequestOptions): Promise<Prompt[]> {
    return this.all((c) => this.listPromptsPage(c, options));
  }
  listPromptsPage(cursor?: string, options?: RequestOptions): Promise<Page<Prompt>> {
    return this.page('prompts/list', 'prompts', cursor, options);
  }
  async listResources(options?: RequestOptions): Promise<Resource[]> {
    return this.all((c) => this.listResourcesPage(c, options));
  }
  listResourcesPage(cursor?: string, options?: RequestOptions): Promise<Page<Resource>> {
    return this.page('resources/list', 'resources', cursor, options);
  }
  async listResourceTemplates(options?: RequestOptions): Promise<ResourceTemplate[]> {
    return this.all((c) => this.listResourceTemplatesPage(c, options));
  }
  listResourceTemplatesPage(cursor?: string, options?: RequestOptions): Promise<Page<ResourceTemplate>> {
    return this.page('resources/templates/list', 'resourceTemplates', cursor, options);
  }

  /** Calls a tool, answering every ask; `callInfo(result)` tells the rounds and asks it took. */
  async callTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<CallToolResult> {
    // Modern HTTP mirrors x-mcp-header arguments into headers: learn the tool's declarations first.
    if (this.era === 'modern' && this.transport.kind === 'http' && !this.session.catalog.knows(name))
      await this.listTools(options);
    return (await this.inputCall('tools/call', { name, arguments: args }, options)) as CallToolResult;
  }
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    return (await this.inputCall('prompts/get', { name, arguments: args }, options)) as GetPromptResult;
  }
  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return (await this.inputCall('resources/read', { uri }, options)) as ReadResourceResult;
  }

  /**
   * One round of a call, its raw result as the server sent it (2026: an `input_required` result is
   * returned unanswered; pass its answers and `requestState` in `params` for the next round). For a
   * caller that relays rounds to someone else (a bridge).
   */
  async round(
    method: 'tools/call' | 'prompts/get' | 'resources/read',
    params: JsonObject,
    options: Omit<CallOptions, 'manual' | 'onTaskStatus'> & RoundOptions = {},
  ): Promise<JsonObject> {
    if (method === 'tools/call' && this.era === 'modern' && this.transport.kind === 'http') {
      const name = params.name;
      if (typeof name === 'string' && !this.session.catalog.knows(name)) await this.listTools(options);
    }
    const progress = this.session.progressToken(options.onProgress);
    try {
      return await this.session.exchange(method, params, {
        signal: options.signal,
        progressToken: progress.token,
        input: options.input,
        onLog: options.onLog,
        timeoutMs: options.timeoutMs,
        capabilities: options.capabilities,
      });
    } finally {
      progress.release();
    }
  }

  async complete(request: CompleteRequest, options?: RequestOptions): Promise<CompleteResult> {
    const result = await this.session.exchange('completion/complete', request, options);
    return (result.completion ?? { values: [] }) as CompleteResult;
  }

  /** Legacy `ping`; 2026 removed it, so there a `server/discover` round trip stands in. */
  async ping(options?: RequestOptions): Promise<void> {
    await this.session.exchange(this.era === 'legacy' ? 'ping' : 'server/discover', {}, options);
  }

  /** Legacy: `logging/setLevel`. 2026: the level every later request carries in `_meta`. */
  async setLogLevel(level: LogLevel): Promise<void> {
    this.session.logLevel = level;
    if (this.era === 'legacy') await this.session.exchange('logging/setLevel', { level });
  }

  /** Refreshes the server description (2026 `server/discover`; legacy keeps the initialize answer). */
  async discover(): Promise<ServerDescription> {
    if (this.era === 'modern') this.description = await discover(this.session);
    return this.description;
  }

  /** Change notifications as an async iterable (`for await … of`, `break` or `close()` ends it). */
  listen(filter: ListenFilter, options: RequestOptions = {}): Promise<Subscription> {
    return listen(this.session, filter, options.signal);
  }

  /** The Skills extension (SEP-2640): list, get, and load skills verified against their entries. */
  get skills(): SkillsClient {
    return (this.skillsClient ??= new SkillsClient(this));
  }

  /** Escape hatch: any method, with the era's envelope; resolves with the raw result. */
  request(method: string, params: JsonObject = {}, options?: RequestOptions): Promise<JsonObject> {
    return this.session.exchange(method, params, options);
  }

  async close(): Promise<void> {
    this.session.close();
    await this.session.transport.close();
  }

  private async inputCall(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    const progress = this.session.progressToken(options.onProgress);
    const send = (p: JsonObject) =>
      this.session.exchange(method, p, {
        signal: options.signal,
        progressToken: progress.token,
        input: options.input,
        onLog: options.onLog,
      });
    const handlers = options.input ?? this.options;
    try {
      if (this.era === 'legacy') {
        const before = this.session.legacyAsks;
        const result = await send(params);
        return recordCallInfo(result, { rounds: 1, asks: this.session.legacyAsks - before, era: 'legacy' });
      }
      const signal = options.signal ?? this.session.closedSignal;
      const driven = await driveInputRounds({
        method,
        params,
        maxInputRounds: this.options.maxInputRounds,
        manual: options.manual,
        stateOnlyBackoffMs: this.options.stateOnlyBackoffMs,
        signal,
        send,
        answer: (requests) => answerInputRound(handlers, requests, { era: 'modern', signal }),
      });
      if (driven.result.resultType !== 'task' || method !== 'tools/call' || options.manual) {
        return recordCallInfo(driven.result, { rounds: driven.rounds, asks: driven.asks, era: 'modern' });
      }
      const request = (m: string, p: JsonObject) => this.session.exchange(m, p, { signal: options.signal });
      const followed = await followTask({
        created: driven.result,
        get: (taskId) => request('tasks/get', { taskId }),
        update: async (taskId, inputResponses) => void (await request('tasks/update', { taskId, inputResponses })),
        cancel: async (taskId) => void (await this.session.exchange('tasks/cancel', { taskId })),
        answer: (requests) => answerInputRound(handlers, requests, { era: 'modern', signal }),
        signal,
        onStatus: options.onTaskStatus,
        sleep: (ms, s) => abortableSleep(ms, s),
      });
      return recordCallInfo(followed.result, {
        rounds: driven.rounds + followed.polls,
        asks: driven.asks + followed.asks,
        era: 'modern',
        taskId: driven.result.taskId as string,
      });
    } finally {
      progress.release();
    }
  }

  private async page<T>(
    method: string,
    key: ListKey,
    cursor: string | undefined,
    options?: RequestOptions,
  ): Promise<Page<T>> {
    const result = await this.session.exchange(method, cursor === undefined ? {} : { cursor }, options);
    const items = Array.isArray(result[key]) ? (result[key] as T[]) : [];
    const page: Page<T> = { items };
    if (typeof result.nextCursor === 'string') page.nextCursor = result.nextCursor;
    if (typeof result.ttlMs === 'number') page.ttlMs = result.ttlMs;
    if (result.cacheScope === 'public' || result.cacheScope === 'private') page.cacheScope = result.cacheScope;
    return page;
  }

  /** Follows cursors to the end; a repeated cursor stops the walk (a server bug, not a loop). */
  private async all<T>(fetchPage: (cursor?: string) => Promise<Page<T>>): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await fetchPage(cursor);
      items.push(...page.items);
      cursor = page.nextCursor;
      if (cursor !== undefined && seen.has(cursor)) break;
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return items;
  }
}

function createTransport(target: ClientTarget): ClientTransport {
  const valid = validateTarget(target);
  switch (valid.kind) {
    case 'transport':
      return valid.target.transport;
    case 'app':
      return new MemoryTransport(valid.target.app, valid.target.principal);
    case 'stdio':
      return new StdioTransport(valid.target);
    case 'http':
      return new HttpTransport(valid.target);
  }
}

