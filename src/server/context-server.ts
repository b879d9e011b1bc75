/**
 * The dispatcher: one handler per method, for each era. Transports hand it decoded requests and
 * a RequestIO; it answers a JSON-RPC response (the HTTP transport maps its status from the code), or a
 * listen stream. Transports see it only as a ServerEndpoint.
 */
import { ProtocolError } from '../errors/protocol-error';
import { ErrorCode } from '../protocol/error-codes';
import {
  failure,
  success,
  type JsonObject,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from '../protocol/jsonrpc';
import { isLogLevel, Meta } from '../protocol/meta';
import { checkEnvelope } from '../protocol/modern-envelope';
import type { LegacySession } from './legacy/legacy-session';
import { PendingAskBudget } from './legacy/pending-asks';
import { callTool, getPrompt, readResource } from './methods/calls';
import { complete } from './methods/completion';
import { discover, initialize } from './methods/lifecycle';
import { listPrompts, listResources, listResourceTemplates, listTools } from './methods/lists';
import type { RequestIO } from './request/request-io';
import { ListenQuota } from './fleet/listen-quota';
import { followChanges } from './legacy/legacy-changes';
import { legacySubscription } from './legacy/legacy-subscribe';
import { openListen } from './fleet/listen-stream';
import { legacyResult, modernReply, type Produced } from './replies/result-envelope';
import { serverMetaOf, type ServerMeta } from './replies/reply-text';
import type { EndpointSettings, ListenStream, Reply, ServerEndpoint } from './server-endpoint';
import type { HeaderParam } from '../protocol/mcp-header';
import { toolHeaderParams } from './request/tool-header-params';
import { readModernEnvelope, type RequestScope } from './request/request-scope';
import type { ServerCore } from './core/server-core';
import { thrownDetail } from './core/server-logger';
import { internalErrorMessage } from '../state/bookkeeping-failure';
import { ServerTelemetry } from '../telemetry/server-telemetry';
import type { RequestTelemetry } from '../telemetry/request-telemetry';
import { replyFacts } from './replies/reply-facts';
import { attachTelemetry } from './request/request-telemetry-of';
import { MemoryTaskStore } from '../state/memory-task-store';
import { cancelTask, getTask, updateTask } from './methods/tasks';
import { getSkill, listSkills, readDirectory } from './methods/skills';
import { DIRECTORY_READ, SKILLS_GET, SKILLS_LIST } from '../protocol/skills';
import { TaskService } from './tasks/task-service';

/** A handler answers with a promise, or at once when it could (a synchronous tool). */
type Handler = (req: JsonRpcRequest, scope: RequestScope, io: RequestIO) => Produced | Promise<Produced>;

/** A method only legacy sessions have: it answers with the session at hand. */
type LegacyHandler = (req: JsonRpcRequest, session: LegacySession, io: RequestIO) => Reply | Promise<Reply>;

/** The one 2026 method that answers with a stream, not a reply (`dispatchModern` opens it). */
const LISTEN = 'subscriptions/listen';

export class ContextServer implements ServerEndpoint {
  readonly settings: EndpointSettings;
  /** A Map, not an object: a method named `constructor` or `__proto__` must find nothing. */
  private readonly shared: ReadonlyMap<string, Handler>;
  /** The `_meta` every 2026 result carries, with its JSON text. */
  private readonly serverMeta: ServerMeta;
  private readonly listens: ListenQuota;
  /**
   * How a listen stream the server ends answers. A field, not a closure made in dispatchModern: that
   * one would share dispatchModern's context, which holds the whole request, for the stream's life.
   */
  private readonly listenError = (req: JsonRpcRequest, e: unknown): Reply => this.errorReply(req, e);
  private readonly telemetry: ServerTelemetry;
  /** Methods only 2026-07-28 serves (discovery, the tasks extension). */
  private readonly modernOnly: ReadonlyMap<string, Handler>;
  /** Methods only legacy sessions serve (the session's lifecycle and subscriptions). */
  private readonly legacyOnly: ReadonlyMap<string, LegacyHandler>;
  /** Built on first use (tasks): a start-up that answers no task never loads its module (issue 38). */
  private taskService?: TaskService;

  /**
   * `deployment`: what the application knows of the requestState key and the flow store (either module may set them).
   */
  constructor(
    readonly core: ServerCore,
    deployment: Pick<
      EndpointSettings,
      'ephemeralStateKey' | 'processLocalFlowStore' | 'resourceServer' | 'approvalPages'
    > & {
      /** The application's start-up work (its modules' `start`: mounted upstreams), after the stores answer. */
      start?: () => Promise<void>;
    } & Partial<Pick<EndpointSettings, 'ready'>>,
  ) {
    const c = core;
    this.settings = Object.freeze({
      logger: c.logger,
      authenticate: c.options.authenticate,
      resourceServer: deployment.resourceServer,
      approvalPages: deployment.approvalPages,
      maxPendingAsksPerSession: c.options.maxPendingAsksPerSession,
      pendingAsks: new PendingAskBudget(c.options),
      ephemeralStateKey: deployment.ephemeralStateKey,
      processLocalFlowStore: deployment.processLocalFlowStore,
      // Read when asked: nothing loads node:crypto before a stdio server's first answer (issue 38).
      stateKeyFingerprint: () => c.engine.sealer.fingerprint,
      eventStore: c.shared?.eventStore,
      leases: c.shared?.leases,
      sessionEvicted: (pool: string) => this.telemetry.sessionEvicted(pool),
      ready: async () => {
        // The stores answer (and, in a fleet, the run-time change log is replayed), then the modules start.
        await (deployment.ready ?? (async () => c.shared?.ready()))();
        await deployment.start?.();
      },
      storesReachable: () => c.shared?.reachable?.() ?? true,
    });
    this.serverMeta = serverMetaOf(c.info);
    this.listens = new ListenQuota(c.options);
    const info = c.logger.info;
    this.telemetry = new ServerTelemetry(
      c.options.telemetry,
      c.options.telemetry.accessLog && info ? (detail, message) => info.call(c.logger, message, detail) : undefined,
    );
    this.modernOnly = new Map<string, Handler>([
      ['server/discover', () => discover(c)],
      ['tasks/get', (r, s, io) => getTask(this.tasks, r.params, s, io)],
      ['tasks/update', (r, s, io) => updateTask(this.tasks, r.params, s, io)],
      ['tasks/cancel', (r, s, io) => cancelTask(this.tasks, r.params, s, io)],
    ]);
    const subscription: LegacyHandler = (r, session, io) =>
      legacySubscription(c, session, r, io).then(
        (result) => this.legacyReply(r, result),
        (e: unknown) => this.errorReply(r, e),
      );
    this.legacyOnly = new Map<string, LegacyHandler>([
      ['initialize', (r, session) => this.legacyReply(r, initialize(c, session, r.params))],
      ['ping', (r) => this.legacyReply(r, {})],
      ['logging/setLevel', (r, session) => this.legacyReply(r, this.setLevel(session, r.params))],
      ['resources/subscribe', subscription],
      ['resources/unsubscribe', subscription],
    ]);
    this.shared = new Map<string, Handler>([
      ['tools/list', (r, s, io) => listTools(c, r, s, io)],
      ['prompts/list', (r, s, io) => listPrompts(c, r, s, io)],
      ['resources/list', (r, s, io) => listResources(c, r, s, io)],
      ['resources/templates/list', (r, s, io) => listResourceTemplates(c, r, s, io)],
      ['tools/call', (r, s, io) => callTool(c, r, s, io, this.tasks)],
      ['prompts/get', (r, s, io) => getPrompt(c, r, s, io)],
      ['resources/read', (r, s, io) => readResource(c, r, s, io)],
      ['completion/complete', (r, s, io) => complete(c, r, s, io)],
      // The Skills extension's methods exist only on a server that publishes skills (else -32601).
      ...(c.registry.hasSkills()
        ? ([
            [SKILLS_LIST, (r, s, io) => listSkills(c, r, s, io)],
            [SKILLS_GET, (r, s, io) => getSkill(c, r, s, io)],
            [DIRECTORY_READ, (r, s, io) => readDirectory(c, r, s, io)],
          ] as [string, Handler][])
        : []),
    ]);
  }

  /** Not async: a listen opens synchronously, and the hot path hands back handleModern's own answer. */
  dispatchModern(req: JsonRpcRequest, io: RequestIO): ListenStream | Reply | Promise<Reply> {
    if (req.method !== LISTEN) {
      if (!this.telemetry.on) return this.handleModern(req, io);
      const origin = { era: 'modern' as const, protocolVersion: modernVersionOf(req), transport: io.transport };
      const t = this.telemetry.begin(req, origin);
      return t ? observed(t, () => this.handleModern(req, io, t)) : this.handleModern(req, io);
    }
    const envelope = checkEnvelope(req.params);
    if (envelope.kind === 'missing') return Promise.resolve(missingEnvelope(req, envelope.message));
    try {
      return openListen(this.core, this.listens, this.telemetry, req, io, this.listenError);
    } catch (e) {
      return Promise.resolve(this.errorReply(req, e));
    }
  }

  dispatchLegacy(req: JsonRpcRequest, session: LegacySession, io: RequestIO): Reply | Promise<Reply> {
    if (!this.telemetry.on) return this.handleLegacy(req, session, io);
    const t = this.telemetry.begin(req, {
      era: 'legacy',
      protocolVersion: req.method === 'initialize' ? undefined : session.protocolVersion,
      transport: io.transport,
      sessionId: session.id,
    });
    return t ? observed(t, () => this.handleLegacy(req, session, io, t)) : this.handleLegacy(req, session, io);
  }

  legacyNotification(n: JsonRpcNotification, session: LegacySession): void {
    if (n.method === 'notifications/initialized') session.initialized = true;
  }

  followChanges(session: LegacySession, send: (n: JsonRpcNotification) => void): () => void {
    return followChanges(this.core.registry, session, send);
  }

  /**
   * Every request method this server answers, by era, read from the same tables the dispatchers
   * read (and the listen stream): a method is answered only if it is here. A test walks it so a new
   * method cannot skip the visibility check.
   */
  /** The tasks extension's service, built on its first use. */
  get tasks(): TaskService {
    const c = this.core;
    this.taskService ??= new TaskService(c, c.options.taskStore ?? c.shared?.taskStore ?? new MemoryTaskStore());
    return this.taskService;
  }

  /** Hands the task rounds running here back (none if no task ever ran here). */
  async handBackTasks(): Promise<void> {
    await this.taskService?.handBack();
  }

  get methods(): { readonly modern: readonly string[]; readonly legacy: readonly string[] } {
    return {
      modern: [LISTEN, ...this.shared.keys(), ...this.modernOnly.keys()],
      legacy: [...this.legacyOnly.keys(), ...this.shared.keys()],
    };
  }

  toolHeaderParams(name: string): readonly HeaderParam[] {
    return toolHeaderParams(this.core.registry, name);
  }

  /**
   * A 2026-07-28 request: envelope validated, result carries resultType, serverInfo and cache hints.
   * Not async: a handler that answers synchronously gets its reply back the same way.
   */
  handleModern(req: JsonRpcRequest, io: RequestIO, telemetry?: RequestTelemetry): Reply | Promise<Reply> {
    try {
      const envelope = checkEnvelope(req.params);
      if (envelope.kind === 'missing') return missingEnvelope(req, envelope.message);
      const scope = readModernEnvelope(req.params, envelope);
      if (telemetry) attachTelemetry(scope, telemetry);
      const handler = this.shared.get(req.method) ?? this.modernOnly.get(req.method);
      if (!handler) throw ProtocolError.methodNotFound(req.method);
      const produced = handler(req, scope, io);
      if (produced instanceof Promise) {
        // One derived promise, not two (`.then().catch()`): a throw while wrapping is caught inside.
        return produced.then(
          (p) => this.modernReplyOrError(req, p),
          (e: unknown) => this.errorReply(req, e),
        );
      }
      return this.modernReply(req, produced);
    } catch (e) {
      return this.errorReply(req, e);
    }
  }

  private modernReplyOrError(req: JsonRpcRequest, produced: Produced): Reply {
    try {
      return this.modernReply(req, produced);
    } catch (e) {
      return this.errorReply(req, e);
    }
  }

  private modernReply(req: JsonRpcRequest, produced: Produced): Reply {
    return modernReply(this.core, req, produced, this.serverMeta);
  }

  /**
   * A legacy request on a session (stdio, HTTP session, or a throwaway one for stateless HTTP). Not
   * async: a handler that answers synchronously gets its reply back the same way.
   */
  handleLegacy(
    req: JsonRpcRequest,
    session: LegacySession,
    io: RequestIO,
    telemetry?: RequestTelemetry,
  ): Reply | Promise<Reply> {
    try {
      const own = this.legacyOnly.get(req.method);
      if (own) return own(req, session, io);
      const handler = this.shared.get(req.method);
      if (!handler) throw ProtocolError.methodNotFound(req.method);
      const scope = session.scope(req.params);
      if (telemetry) attachTelemetry(scope, telemetry);
      const produced = handler(req, scope, io);
      if (produced instanceof Promise) {
        return produced.then(
          (p) => this.legacyReply(req, legacyResult(p)),
          (e: unknown) => this.errorReply(req, e),
        );
      }
      return this.legacyReply(req, legacyResult(produced));
    } catch (e) {
      return this.errorReply(req, e);
    }
  }

  private legacyReply(req: JsonRpcRequest, result: JsonObject): Reply {
    return { kind: 'reply', message: success(req.id, result) };
  }

  private setLevel(session: LegacySession, params: JsonObject | undefined): JsonObject {
    if (!isLogLevel(params?.level)) throw ProtocolError.invalidParams('logging/setLevel: invalid level');
    session.logLevel = params.level;
    return {};
  }

  /** A thrown error as a reply (the HTTP transport maps its status from the code, whoever raised it). */
  private errorReply(req: JsonRpcRequest, e: unknown): Reply {
    if (e instanceof ProtocolError) {
      return { kind: 'reply', message: failure(req.id, e.code, e.message, e.data) };
    }
    this.core.logger.error(`internal error in ${req.method}`, thrownDetail(e));
    return { kind: 'reply', message: failure(req.id, -32603, internalErrorMessage(e)) };
  }
}

/** Runs a request with its span active and ends the span with the reply. */
async function observed(t: RequestTelemetry, handle: () => Reply | Promise<Reply>): Promise<Reply> {
  const reply = await t.run(handle);
  try {
    t.end(replyFacts(reply.message));
  } catch {
    // An exporter or logger that throws must not cost the client its answer.
  }
  return reply;
}

/** The revision a 2026 request names in `_meta` (as sent: the span records what the client asked for). */
function modernVersionOf(req: JsonRpcRequest): string | undefined {
  const meta = req.params?._meta;
  const v = typeof meta === 'object' && meta !== null ? (meta as JsonObject)[Meta.protocolVersion] : undefined;
  return typeof v === 'string' && v.length <= 32 ? v : undefined;
}

/** A missing envelope field is -32602, whose status is otherwise 200: over HTTP this one is 400. */
function missingEnvelope(req: JsonRpcRequest, message: string): Reply {
  return { kind: 'reply', message: failure(req.id, ErrorCode.InvalidParams, message), missingEnvelope: true };
}

