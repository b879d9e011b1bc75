/**
 * One request as telemetry sees it: its span (when tracing is live), the attributes its duration
 * is recorded with, and the flow it belongs to. Made by ServerTelemetry only when something is live.
 */
import type { Attributes, Context, Link, Span } from '@opentelemetry/api';
import type { Otel } from './otel-api';
import { answerOutcome, Attr, type AskObserver, type AskOutcome } from './conventions';
import { formatTraceParent } from './trace-context';
import type { Instruments } from './instruments';

/** Error codes that mean the target does not exist or the request is malformed: its name stays out of names. */
const UNKNOWN_TARGET_CODES = new Set([-32601, -32602, -32002]);

export interface RequestFacts {
  method: string;
  target?: string;
  targetAttr?: string;
  era: 'modern' | 'legacy';
}

/** The reply as telemetry reads it: an error code and message, or whether a tool result is an error. */
export interface ReplyFacts {
  errorCode?: number;
  errorMessage?: string;
  toolError?: boolean;
}

/** Where the access log line goes (the server logger's `info`, adapted). */
export type AccessLog = (detail: Record<string, unknown>, message: string) => void;

/** A traced request: the API, its span and the context the handler runs in (the span under its parent). */
export interface Traced {
  api: Otel;
  span: Span;
  ctx: Context;
}

export class RequestTelemetry {
  /** The flow this request is a round of (2026 flows only), once known. */
  flowId?: string;

  private readonly span: Span | undefined;

  constructor(
    private readonly facts: RequestFacts,
    /** Attributes the duration is recorded with (the conventions' set). */
    private readonly metricAttrs: Attributes,
    private readonly startedAt: number,
    private readonly traced: Traced | undefined,
    private readonly instruments: Instruments | undefined,
    private readonly accessLog: AccessLog | undefined,
  ) {
    this.span = traced?.span;
  }

  /** Runs `fn` with this request's span as the active one (user spans nest under it). */
  run<T>(fn: () => T): T {
    return this.traced ? this.traced.api.context.with(this.traced.ctx, fn) : fn();
  }

  /** `traceparent` / `tracestate` for a request the server sends on behalf of this one (legacy asks). */
  traceMeta(): Record<string, string> | undefined {
    const sc = this.span?.spanContext();
    if (!sc) return undefined;
    const meta: Record<string, string> = { traceparent: formatTraceParent(sc.traceId, sc.spanId, sc.traceFlags) };
    const state = sc.traceState?.serialize();
    if (state) meta.tracestate = state;
    return meta;
  }

  /** What the legacy ask port reports to, and the trace context it sends with each ask. */
  legacyAsks(): { traceMeta?: Record<string, string>; observe: AskObserver; pending: (delta: 1 | -1) => void } {
    return {
      traceMeta: this.traceMeta(),
      observe: (kind, key, outcome) => this.ask(kind, key, outcome),
      pending: (delta) => this.instruments?.pendingAsks.add(delta),
    };
  }

  /**
   * Round 1 of a flow that needs another round: the flow's id on the span; returns this span's
   * context (trace id, span id, flags as 50 hex characters) for the flow to seal, if traced.
   */
  startFlow(flowId: string): string | undefined {
    this.flowId = flowId;
    this.span?.setAttribute(Attr.flowId, flowId);
    const sc = this.span?.spanContext();
    return sc && this.traced?.api.isSpanContextValid(sc) ? sc.traceId + sc.spanId + hex2(sc.traceFlags) : undefined;
  }

  /** A later round: the flow's id, and a link to its first span (wherever that round ran). */
  continueFlow(flowId: string, firstSpan: string | undefined): void {
    this.flowId = flowId;
    if (!this.traced) return;
    this.traced.span.setAttribute(Attr.flowId, flowId);
    const link = firstSpanLink(this.traced.api, firstSpan, flowId);
    if (link) this.traced.span.addLink(link);
  }

  /** A flow that took more than one round completed: how many. */
  flowCompleted(rounds: number): void {
    this.instruments?.rounds.record(rounds, { [Attr.method]: this.facts.method });
  }

  /** An ask of this request: a span event, and the asks counter for an answer. Never the answer itself. */
  ask(kind: string, key: string, outcome: AskOutcome): void {
    this.span?.addEvent('mcp.ask', { [Attr.askKind]: kind, [Attr.askKey]: key, [Attr.askOutcome]: outcome });
    if (outcome !== 'asked') this.instruments?.asks.add(1, { [Attr.askKind]: kind, [Attr.askOutcome]: outcome });
  }

  /** The outcome of an answer kept in the journal (elicitation action, else accept). */
  answered(kind: string, key: string, kept: unknown): void {
    this.ask(kind, key, answerOutcome(kept));
  }

  /** An echoed requestState was refused: the reason only, never the payload. */
  refused(reason: string): void {
    this.span?.setAttribute(Attr.refusalReason, reason);
    this.instruments?.refusals.add(1, { [Attr.refusalReason]: reason, [Attr.method]: this.facts.method });
  }

  /** The size of a sealed requestState this request returned (characters of the token, i.e. bytes). */
  sealed(bytes: number): void {
    this.instruments?.stateSize.record(bytes, { [Attr.method]: this.facts.method });
  }

  /** Ends the span, records the duration and writes the access log line. */
  end(reply: ReplyFacts): void {
    const seconds = (performance.now() - this.startedAt) / 1000;
    const errorType =
      reply.errorCode !== undefined ? String(reply.errorCode) : reply.toolError ? 'tool_error' : undefined;
    const unknownTarget = reply.errorCode !== undefined && UNKNOWN_TARGET_CODES.has(reply.errorCode);
    if (this.traced) {
      const span = this.traced.span;
      if (errorType !== undefined) {
        span.setAttribute(Attr.errorType, errorType);
        if (reply.errorCode !== undefined) span.setAttribute(Attr.statusCode, String(reply.errorCode));
        span.setStatus({ code: this.traced.api.SpanStatusCode.ERROR, message: reply.errorMessage ?? errorType });
      }
      if (unknownTarget && this.facts.target !== undefined) span.updateName(this.facts.method);
      span.end();
    }
    if (this.instruments) {
      const attrs: Attributes = { ...this.metricAttrs };
      if (unknownTarget) {
        delete attrs[Attr.toolName];
        delete attrs[Attr.promptName];
        delete attrs[Attr.resourceUri];
      }
      if (errorType !== undefined) attrs[Attr.errorType] = errorType;
      if (reply.errorCode !== undefined) attrs[Attr.statusCode] = String(reply.errorCode);
      this.instruments.duration.record(seconds, attrs);
    }
    this.accessLog?.(
      {
        method: this.facts.method,
        target: unknownTarget ? undefined : this.facts.target,
        era: this.facts.era,
        outcome: errorType ?? 'ok',
        durationMs: Math.round(seconds * 1e6) / 1e3,
        flowId: this.flowId,
      },
      'mcp request',
    );
  }
}

function hex2(n: number): string {
  return (n & 0xff).toString(16).padStart(2, '0');
}

/** The sealed first-span context as a link (it passed the MAC, but is read defensively all the same). */
function firstSpanLink(api: Otel, first: string | undefined, flowId: string): Link | undefined {
  if (first === undefined || !/^[0-9a-f]{50}$/.test(first)) return undefined;
  const context = {
    traceId: first.slice(0, 32),
    spanId: first.slice(32, 48),
    traceFlags: parseInt(first.slice(48), 16),
    isRemote: true,
  };
  return api.isSpanContextValid(context) ? { context, attributes: { [Attr.flowId]: flowId } } : undefined;
}
