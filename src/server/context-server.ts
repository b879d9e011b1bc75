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
  type JsonRpcResponse,
} from '../protocol/jsonrpc';
import { isLogLevel, Meta } from '../protocol/meta';
import { checkEnvelope } from '../protocol/modern-envelope';
import type { CacheHints } from '../metadata/options';
import type { Outcome } from './ask-engine';
import type { LegacySession } from './legacy-session';
import { callTool, getPrompt, readResource } from './methods/calls';
import { complete } from './methods/completion';
import { discover, initialize } from './methods/lifecycle';
import { listPrompts, listResources, listResourceTemplates, listTools } from './methods/lists';
import { CALLER_DEPENDENT } from './methods/list-visibility';
import { knownTo } from './methods/guarded';
import type { RequestIO } from './request-io';
import { resourceUri } from './resource-uri';
import { ListenQuota } from './listen-quota';
import { holdFleetListen } from './fleet-listen';
import { openSubscription } from './subscriptions';
import { followChanges } from './legacy-changes';
import type { EndpointSettings, ListenStream, Reply, ServerEndpoint } from './server-endpoint';
import type { HeaderParam } from '../protocol/mcp-header';
import { toolHeaderParams } from './tool-header-params';
import { readModernEnvelope, type RequestScope } from './request-scope';
import type { ServerCore } from './server-core';
import { thrownDetail } from './server-logger';
import { StoreUnavailableError } from '../state/store-unavailable';
import { ServerTelemetry } from '../telemetry/server-telemetry';
import type { RequestTelemetry } from '../telemetry/request-telemetry';
import { replyFacts } from './reply-facts';
import { attachTelemetry } from './request-telemetry-of';
import { MemoryTaskStore } from '../state/memory-task-store';
import { cancelTask, getTask, updateTask } from './methods/tasks';
import { TaskService, type TaskOutcome } from './tasks/task-service';

type Produced = JsonObject | Outcome<JsonObject> | TaskOutcome;
/** A handler answers with a promise, or at once when it could (a synchronous tool). */
type Handler = (req: JsonRpcRequest, scope: RequestScope, io: RequestIO) => Produced | Promise<Produced>;

const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
]);

export class ContextServer implements ServerEndpoint {
  readonly settings: EndpointSettings;
  /** A Map, not an object: a method named `constructor` or `__proto__` must find nothing. */
  private readonly shared: ReadonlyMap<string, Handler>;
  private readonly serverInfoMeta: JsonObject;
  private readonly listens: ListenQuota;
  private readonly telemetry: ServerTelemetry;
  /** Methods only 2026-07-28 serves (the tasks extension). */
  private readonly modernOnly: ReadonlyMap<string, Handler>;
  readonly tasks: TaskService;

  /**
   * `deployment`: what the application knows of the requestState key and the flow store (either module may set them).
   */
  constructor(
    readonly core: ServerCore,
    deployment: Pick<EndpointSettings, 'ephemeralStateKey' | 'processLocalFlowStore' | 'resourceServer'>,
  ) {
    const c = core;
    this.settings = Object.freeze({
      logger: c.logger,
      authenticate: c.options.authenticate,
      resourceServer: deployment.resourceServer,
      maxPendingAsksPerSession: c.options.maxPendingAsksPerSession,
      ephemeralStateKey: deployment.ephemeralStateKey,
      processLocalFlowStore: deployment.processLocalFlowStore,
      stateKeyFingerprint: c.engine.sealer.fingerprint,
      eventStore: c.shared?.eventStore,
      leases: c.shared?.leases,
      ready: async () => c.shared?.ready(),
    });
    this.serverInfoMeta = Object.freeze({ [Meta.serverInfo]: c.info }) as JsonObject;
    this.listens = new ListenQuota(c.options);
    const info = c.logger.info;
    this.telemetry = new ServerTelemetry(
      c.options.telemetry,
      c.options.telemetry.accessLog && info ? (detail, message) => info.call(c.logger, message, detail) : undefined,
    );
    const tasks = new TaskService(c, c.options.taskStore ?? c.shared?.taskStore ?? new MemoryTaskStore());
    this.tasks = tasks;
    this.modernOnly = new Map<string, Handler>([
      ['tasks/get', (r, s, io) => getTask(tasks, r.params, s, io)],
      ['tasks/update', (r, s, io) => updateTask(tasks, r.params, s, io)],
      ['tasks/cancel', (r, s, io) => cancelTask(tasks, r.params, s, io)],
    ]);
    this.shared = new Map<string, Handler>([
      ['tools/list', (r, s, io) => listTools(c, r, s, io)],
      ['prompts/list', (r, s, io) => listPrompts(c, r, s, io)],
      ['resources/list', (r, s, io) => listResources(c, r, s, io)],
      ['resources/templates/list', (r, s, io) => listResourceTemplates(c, r, s, io)],
      ['tools/call', (r, s, io) => callTool(c, r, s, io, tasks)],
      ['prompts/get', (r, s, io) => getPrompt(c, r, s, io)],
      ['resources/read', (r, s, io) => readResource(c, r, s, io)],
      ['completion/complete', (r, s, io) => complete(c, r, s, io)],
    ]);
  }

  /** Not async: a listen opens synchronously, and the hot path hands back handleModern's own answer. */
  dispatchModern(req: JsonRpcRequest, io: RequestIO): ListenStream | Reply | Promise<Reply> {
    if (req.method !== 'subscriptions/listen') {
      if (!this.telemetry.on) return this.handleModern(req, io);
      const origin = { era: 'modern' as const, protocolVersion: modernVersionOf(req), transport: io.transport };
      const t = this.telemetry.begin(req, origin);
      return t ? observed(t, () => this.handleModern(req, io, t)) : this.handleModern(req, io);
    }
    const envelope = checkEnvelope(req.params);
    if (envelope.kind === 'missing') return Promise.resolve(missingEnvelope(req, envelope.message));
    try {
      return this.openListen(req, io.principal?.id);
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

  toolHeaderParams(name: string): readonly HeaderParam[] {
    return toolHeaderParams(this.core.registry, name);
  }

  /**
   * `subscriptions/listen` (every transport): a slot under the listen caps, then the subscription;
   * closing it (gracefully or not) frees the slot.
   */
  private openListen(req: JsonRpcRequest, principalId: string | undefined): ListenStream {
    const taken = this.listens.take(principalId);
    this.telemetry.listenStreams(1);
    let released = false;
    const release = () => {
      taken();
      if (!released) this.telemetry.listenStreams(-1);
      released = true;
    };
    try {
      const sub = openSubscription(this.core.registry, req, this.core.info, this.core.options.maxUriLength);
      let ended: JsonRpcResponse | undefined;
      let endStream: ((final: JsonRpcResponse) => void) | undefined;
      const close = () => {
        release();
        releaseFleet?.();
        return sub.close();
      };
      // Ended by the server (fleet quota full, store unavailable): once, whether or not forwarding began.
      const endWith = (error: unknown) => {
        if (ended) return;
        close();
        ended = this.errorReply(req, error).message;
        endStream?.(ended);
      };
      const leases = this.core.shared?.leases;
      const releaseFleet = leases && holdFleetListen(leases, this.core.options, principalId, endWith);
      return {
        kind: 'stream',
        ack: sub.ack,
        forward: (send, end) => {
          if (ended) return end?.(ended);
          endStream = end;
          sub.forward(send);
        },
        close,
      };
    } catch (e) {
      release();
      throw e;
    }
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
      const handler =
        req.method === 'server/discover'
          ? async () => discover(this.core)
          : (this.shared.get(req.method) ?? this.modernOnly.get(req.method));
      if (!handler) throw ProtocolError.methodNotFound(req.method);
      const produced = handler(req, scope, io);
      if (produced instanceof Promise) {
        return produced.then((p) => this.modernReply(req, p)).catch((e: unknown) => this.errorReply(req, e));
      }
      return this.modernReply(req, produced);
    } catch (e) {
      return this.errorReply(req, e);
    }
  }

  private modernReply(req: JsonRpcRequest, produced: Produced): Reply {
    return { kind: 'reply', message: success(req.id, this.modernResult(req, produced)) };
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
      switch (req.method) {
        case 'initialize':
          return this.legacyReply(req, initialize(this.core, session, req.params));
        case 'ping':
          return this.legacyReply(req, {});
        case 'logging/setLevel':
          return this.legacyReply(req, this.setLevel(session, req.params));
        case 'resources/subscribe':
        case 'resources/unsubscribe':
          return this.subscription(session, req, io).then(
            (result) => this.legacyReply(req, result),
            (e: unknown) => this.errorReply(req, e),
          );
        default: {
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
        }
      }
    } catch (e) {
      return this.errorReply(req, e);
    }
  }

  private legacyReply(req: JsonRpcRequest, result: JsonObject): Reply {
    return { kind: 'reply', message: success(req.id, result) };
  }

  private modernResult(req: JsonRpcRequest, produced: Produced): JsonObject {
    if (isOutcome(produced) && produced.kind === 'input_required') {
      return resultWith(produced.result, undefined, this.serverInfoMeta);
    }
    if (isOutcome(produced) && produced.kind === 'task') {
      return resultWith(produced.result, 'task', this.serverInfoMeta);
    }
    const body = !isOutcome(produced) ? produced : produced.kind === 'complete' ? produced.value : produced.result;
    const meta =
      body._meta === undefined ? this.serverInfoMeta : { ...(body._meta as JsonObject), ...this.serverInfoMeta };
    // The framework owns resultType: a handler's return value cannot turn a result into another kind.
    const result = resultWith(body, 'complete', meta);
    const hints = this.cacheHints(req);
    if (hints) {
      result.ttlMs = hints.ttlMs;
      // A list that guards filtered for this caller is never shareable.
      result.cacheScope = CALLER_DEPENDENT.has(body) ? 'private' : hints.cacheScope;
    }
    return result;
  }

  /**
   * Cache hints for a complete result of server/discover, a list or resources/read (the resource's
   * own `cache`, else `readCache`). Added to every complete result, a retry that completes after
   * answers included; an input_required result never carries them (modernResult returns first).
   */
  private cacheHints(req: JsonRpcRequest): CacheHints | undefined {
    if (CACHEABLE.has(req.method)) return this.core.options.listCache;
    if (req.method !== 'resources/read') return undefined;
    const uri = req.params?.uri as string;
    const def = this.core.registry.resource(uri) ?? this.core.registry.matchTemplate(uri)?.def;
    const hints = def?.cache ?? this.core.options.readCache;
    // A guarded resource is read only by the callers its guards let in: never shareable.
    if (def && hints.cacheScope === 'public' && (this.core.pipelines.of(def)?.guards.length ?? 0) > 0) {
      return { ...hints, cacheScope: 'private' };
    }
    return hints;
  }

  private setLevel(session: LegacySession, params: JsonObject | undefined): JsonObject {
    if (!isLogLevel(params?.level)) throw ProtocolError.invalidParams('logging/setLevel: invalid level');
    session.logLevel = params.level;
    return {};
  }

  /** Subscribes only to what exists (a fixed resource or a template match), up to the per-session cap. */
  private async subscription(session: LegacySession, req: JsonRpcRequest, io: RequestIO): Promise<JsonObject> {
    const { method, params } = req;
    const uri = resourceUri(params, method, this.core.options.maxUriLength);
    if (method === 'resources/unsubscribe') {
      session.subscriptions.delete(uri);
      return {};
    }
    if (session.subscriptions.has(uri)) return {};
    const fixed = this.core.registry.resource(uri);
    const def = fixed ?? this.core.registry.matchTemplate(uri)?.def;
    const notFound = () => new ProtocolError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    if (!def) throw notFound();
    // A resource its guards hide from this caller is not found here either.
    const pipe = this.core.pipelines.of(def);
    const kind = fixed ? 'resource' : 'resourceTemplate';
    if (pipe && !(await knownTo({ def, kind, method, target: uri, pipe }, req, session.scope(params), io))) {
      throw notFound();
    }
    const max = this.core.options.maxSubscriptionsPerSession;
    if (session.subscriptions.size >= max) {
      throw ProtocolError.invalidRequest(
        `resources/subscribe: this session already holds ${max} subscriptions (maxSubscriptionsPerSession); unsubscribe first`,
      );
    }
    session.subscriptions.add(uri);
    return {};
  }

  /** A thrown error as a reply (the HTTP transport maps its status from the code, whoever raised it). */
  private errorReply(req: JsonRpcRequest, e: unknown): Reply {
    if (e instanceof ProtocolError) {
      return { kind: 'reply', message: failure(req.id, e.code, e.message, e.data) };
    }
    this.core.logger.error(`internal error in ${req.method}`, thrownDetail(e));
    const message = e instanceof StoreUnavailableError ? StoreUnavailableError.clientMessage : 'Internal error';
    return { kind: 'reply', message: failure(req.id, -32603, message) };
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

/** Legacy revisions have no resultType; a handler's stray one is not passed on. */
/** What a legacy client gets from a shared handler: the value, without the 2026 `resultType`; never a task. */
function legacyResult(produced: Produced): JsonObject {
  if (isOutcome(produced) && produced.kind === 'task') throw ProtocolError.internal('A task on legacy');
  return withoutResultType(
    !isOutcome(produced) ? produced : produced.kind === 'complete' ? produced.value : produced.result,
  );
}

function withoutResultType(result: JsonObject): JsonObject {
  if (!('resultType' in result)) return result;
  const { resultType: _dropped, ...rest } = result;
  return rest;
}

/**
 * `{ ...body, resultType, _meta }`, copied key by key: V8 builds that spread-then-add literal slowly
 * and JSON.stringify of it was slower still (≈ 3 µs per tools/call reply, bench/profile-notes.md).
 */
function resultWith(body: JsonObject, resultType: string | undefined, meta: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const key in body) {
    if (!Object.prototype.hasOwnProperty.call(body, key)) continue;
    // A data property named `__proto__` stays one (as the spread made it), never a prototype.
    if (key !== '__proto__') result[key] = body[key];
    else Object.defineProperty(result, key, { value: body[key], enumerable: true, writable: true, configurable: true });
  }
  if (resultType !== undefined) result.resultType = resultType;
  result._meta = meta;
  return result;
}

function isOutcome(v: Produced): v is Outcome<JsonObject> | TaskOutcome {
  return (
    (v.kind === 'complete' && 'value' in v) ||
    ((v.kind === 'input_required' || v.kind === 'task') && 'result' in v)
  );
}
