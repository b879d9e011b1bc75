/** 2025-11-25 and earlier: an ask is a real server→client request on the held connection. */
import { FrameworkError } from '../errors/framework-error';
import type { JsonObject } from '../protocol/jsonrpc';
import type { ClientCapabilities } from '../protocol/types';
import type { AskPort } from './ask-port';
import { withRefusalReason, type Ask } from './asks';
import { legacyFeatures, type LegacyVersion } from '../protocol/versions';
import { legacyAskParams } from './legacy-ask-shapes';
import type { LowLevelInput } from './input-required-result';
import { answerOutcome, type AskObserver } from '../telemetry/conventions';

/** Sends one request to the client and resolves with its result (rejects on error, abort or timeout). */
export type ClientRequester = (
  method: string,
  params: JsonObject,
  options: { signal: AbortSignal; timeoutMs: number },
) => Promise<unknown>;

/**
 * The request's way to the client. Read only when the handler asks or pauses: most requests never
 * do, and a transport may make the signal and the requester only when they are read.
 */
export interface AskChannel {
  readonly signal: AbortSignal;
  /** Undefined when the connection has no push channel (stateless legacy HTTP). */
  readonly requester?: ClientRequester;
}

export interface LegacyAskOptions {
  capabilities: ClientCapabilities;
  /** The negotiated revision: older ones lack some asks whatever the client declared. */
  protocolVersion: LegacyVersion;
  channel: AskChannel;
  timeoutMs: number;
  /** How many times an invalid answer is asked again before giving up. */
  maxReasks: number;
  pauseMs: number;
  /** Telemetry, when live: the request's trace context for each ask's `_meta`, and what to report. */
  telemetry?: LegacyAskTelemetry;
}

export interface LegacyAskTelemetry {
  /** `traceparent` / `tracestate` of the request's span. */
  traceMeta?: Record<string, string>;
  /** Each ask's kind, key (its method on legacy) and outcome; never the answer. */
  observe: AskObserver;
  /** An ask sent (+1) or settled (-1). */
  pending: (delta: 1 | -1) => void;
}

export class LegacyAskPort implements AskPort {
  readonly allowed = true;
  /** Made on the first `once`. */
  private onceResults?: Map<string, unknown>;

  /** Set by the engine before it runs a low-level handler again with the client's answers. */
  input?: LowLevelInput;

  constructor(private readonly options: LegacyAskOptions) {}

  async ask<T>(ask: Ask<T>): Promise<T> {
    const { capabilities, timeoutMs } = this.options;
    const missingInRevision = revisionLacks(ask.kind, this.options.protocolVersion);
    if (missingInRevision) {
      throw new FrameworkError(
        'OMC_ASK_UNAVAILABLE',
        `Protocol revision ${this.options.protocolVersion} has no ${missingInRevision}; the client must negotiate a newer revision.`,
      );
    }
    if (!ask.supportedBy(capabilities)) {
      throw new FrameworkError(
        'OMC_ASK_UNAVAILABLE',
        `The client did not declare the ${describe(ask.requires)} capability at initialize, so this request cannot ask it for input.`,
      );
    }
    const params = withTraceMeta(
      legacyAskParams(ask, this.options.protocolVersion, capabilities),
      this.options.telemetry?.traceMeta,
    );
    const { requester, signal } = this.options.channel;
    if (!requester) {
      throw new FrameworkError(
        'OMC_ASK_UNAVAILABLE',
        'This legacy client has no channel for server-to-client requests (stateless HTTP without a session). Connect with a session (initialize over Streamable HTTP or stdio) or use protocol revision 2026-07-28.',
      );
    }
    let lastReason = '';
    for (let attempt = 0; attempt <= this.options.maxReasks; attempt++) {
      // A re-ask says why the last answer was refused, as on 2026.
      const sent =
        attempt === 0 ? params : withRefusalReason({ method: ask.request.method, params }, lastReason).params;
      const response = await this.send(requester, ask, sent, { signal, timeoutMs: ask.timeoutMs ?? timeoutMs });
      const decoded = ask.decode(response);
      if (decoded.ok) {
        this.options.telemetry?.observe(ask.kind, ask.key ?? ask.request.method, answerOutcome(decoded.kept));
        return decoded.value;
      }
      lastReason = decoded.reason;
    }
    throw new FrameworkError('OMC_ASK_INVALID_ANSWER', `The client's answers were invalid: ${lastReason}`);
  }

  /** One request on the held connection, counted as pending while it waits when telemetry is live. */
  private async send(
    requester: ClientRequester,
    ask: Ask<unknown>,
    params: JsonObject,
    o: { signal: AbortSignal; timeoutMs: number },
  ) {
    const telemetry = this.options.telemetry;
    if (!telemetry) return requester(ask.request.method, params, o);
    telemetry.pending(1);
    try {
      return await requester(ask.request.method, params, o);
    } catch (e) {
      telemetry.observe(ask.kind, ask.key ?? ask.request.method, 'error');
      throw e;
    } finally {
      telemetry.pending(-1);
    }
  }

  async once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    const results = (this.onceResults ??= new Map());
    if (results.has(key)) return results.get(key) as T;
    const value = await fn();
    results.set(key, value);
    return value;
  }

  pause(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, this.options.pauseMs);
      const signal = this.options.channel.signal;
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      }, { once: true });
    });
  }
}

/** The request's trace context in the ask's `_meta` (its own `_meta` keys kept). */
function withTraceMeta(params: JsonObject, traceMeta: Record<string, string> | undefined): JsonObject {
  if (!traceMeta) return params;
  return { ...params, _meta: { ...((params._meta as JsonObject | undefined) ?? {}), ...traceMeta } };
}

function revisionLacks(kind: Ask<unknown>['kind'], v: LegacyVersion): string | undefined {
  const f = legacyFeatures(v);
  if (kind === 'elicitation' && !f.elicitation) return 'elicitation';
  if (kind === 'urlElicitation' && !f.urlElicitation) return 'URL elicitation';
  return undefined;
}

function describe(requires: Record<string, unknown>): string {
  const [top, sub] = Object.entries(requires)[0] ?? ['unknown', {}];
  const inner = sub && typeof sub === 'object' ? Object.keys(sub) : [];
  return inner.length ? `${top}.${inner[0]}` : top;
}
