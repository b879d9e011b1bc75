/**
 * The server's telemetry: decides once, on the first request, whether anything is live (the API
 * installed and an SDK registered, or the access log on); until then and when nothing is, a request
 * costs one boolean check. When live, `begin` opens one span per request after the conventions.
 */
import { createHash } from 'node:crypto';
import type { Attributes, Context, Link, Tracer } from '@opentelemetry/api';
import type { JsonObject, JsonRpcRequest } from '../protocol/jsonrpc';
import { meterProviderLive, otelApi, tracerProviderLive, type Otel } from './otel-api';
import { Attr, KNOWN_METHODS } from './conventions';
import { makeInstruments, type Instruments } from './instruments';
import { readTraceParent } from './trace-context';
import { RequestTelemetry, type AccessLog, type RequestFacts, type Traced } from './request-telemetry';
import type { TelemetryOptions } from './telemetry-options';

/** How the request reached us: `network.transport` is `tcp` over HTTP, `pipe` over stdio. */
export type RequestTransport = 'http' | 'stdio' | 'memory';

export interface RequestOrigin {
  era: 'modern' | 'legacy';
  protocolVersion?: string;
  transport?: RequestTransport;
  /** The legacy HTTP session id: recorded hashed, never raw. */
  sessionId?: string;
}

const NETWORK_TRANSPORT: Record<RequestTransport, string | undefined> = {
  http: 'tcp',
  stdio: 'pipe',
  memory: undefined,
};
/** Longest tool or prompt name used in a span name (a longer one is cut). */
const MAX_TARGET = 128;

export class ServerTelemetry {
  private decided = false;
  private api?: Otel;
  private tracer?: Tracer;
  private instruments?: Instruments;
  private live = false;

  constructor(
    private readonly options: Readonly<TelemetryOptions>,
    private readonly accessLog?: AccessLog,
  ) {}

  /** Whether requests are traced, measured or logged: decided once, on first use. */
  get on(): boolean {
    if (!this.decided) this.decide();
    return this.live;
  }

  private decide(): void {
    this.decided = true;
    const api = otelApi();
    if (api) {
      this.api = api;
      if (this.options.traces && tracerProviderLive(api)) {
        this.tracer = api.trace.getTracer('onemodelcontext');
      }
      if (this.options.metrics && meterProviderLive(api)) this.instruments = makeInstruments(api);
    }
    this.live = this.tracer !== undefined || this.instruments !== undefined || this.accessLog !== undefined;
  }

  /** A request's telemetry, or undefined when nothing is live. */
  begin(req: JsonRpcRequest, origin: RequestOrigin): RequestTelemetry | undefined {
    if (!this.on) return undefined;
    const api = this.api;
    const method = KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
    const facts = this.facts(method, req.params, origin.era);
    const attrs: Attributes = { [Attr.method]: method };
    if (origin.protocolVersion !== undefined) attrs[Attr.protocolVersion] = origin.protocolVersion;
    const transport = origin.transport && NETWORK_TRANSPORT[origin.transport];
    if (transport) attrs[Attr.transport] = transport;
    if (facts.targetAttr !== undefined && facts.target !== undefined) attrs[facts.targetAttr] = facts.target;
    if (method === 'tools/call') attrs[Attr.operation] = 'execute_tool';
    let traced: Traced | undefined;
    if (api && this.tracer) {
      const spanAttrs: Attributes = { ...attrs };
      if (typeof req.id === 'string' || typeof req.id === 'number') spanAttrs[Attr.requestId] = String(req.id);
      if (origin.sessionId !== undefined) spanAttrs[Attr.sessionId] = hashedSessionId(origin.sessionId);
      const { parent, links } = this.parentOf(api, req.params);
      const name = facts.target !== undefined ? `${method} ${facts.target.slice(0, MAX_TARGET)}` : method;
      const span = this.tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes: spanAttrs, links }, parent);
      traced = { api, span, ctx: api.trace.setSpan(parent, span) };
    }
    return new RequestTelemetry(facts, attrs, performance.now(), traced, this.instruments, this.accessLog);
  }

  /** A listen stream opened (+1) or closed (-1). */
  listenStreams(delta: 1 | -1): void {
    if (this.on) this.instruments?.listenStreams.add(delta);
  }

  /** A legacy session evicted to make room in a full pool (`anonymous`, `principal`, `server`). */
  sessionEvicted(pool: string): void {
    if (this.on) this.instruments?.sessionEvictions.add(1, { [Attr.sessionPool]: pool });
  }

  /** A legacy ask sent (+1) or settled (-1). */
  pendingAsks(delta: 1 | -1): void {
    if (this.on) this.instruments?.pendingAsks.add(delta);
  }

  private facts(method: string, params: JsonObject | undefined, era: 'modern' | 'legacy'): RequestFacts {
    const facts: RequestFacts = { method, era };
    if (method === 'tools/call' || method === 'prompts/get') {
      const name = params?.name;
      if (typeof name === 'string') {
        facts.target = name;
        facts.targetAttr = method === 'tools/call' ? Attr.toolName : Attr.promptName;
      }
    } else if (this.options.resourceUri && (method === 'resources/read' || method.startsWith('resources/sub'))) {
      const uri = params?.uri;
      if (typeof uri === 'string') {
        facts.target = uri;
        facts.targetAttr = Attr.resourceUri;
      }
    }
    return facts;
  }

  /** The remote parent from `params._meta` (the ambient span linked, as the conventions ask), else the ambient one. */
  private parentOf(api: Otel, params: JsonObject | undefined): { parent: Context; links?: Link[] } {
    const ambient = api.context.active();
    const remote = readTraceParent(params?._meta);
    if (!remote) return { parent: ambient };
    const ambientSpan = api.trace.getSpanContext(ambient);
    const parent = api.trace.setSpanContext(ambient, {
      traceId: remote.traceId,
      spanId: remote.spanId,
      traceFlags: remote.traceFlags,
      isRemote: true,
      traceState: remote.traceState !== undefined ? api.createTraceState(remote.traceState) : undefined,
    });
    // The ambient span is linked unless it is the remote parent itself (an in-process client).
    const linked = ambientSpan && api.isSpanContextValid(ambientSpan) && ambientSpan.spanId !== remote.spanId;
    return { parent, links: linked ? [{ context: ambientSpan }] : undefined };
  }
}

/** `mcp.session.id` is a digest of the session id: correlates a session's requests, cannot be replayed. */
export function hashedSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 32);
}
