/**
 * W3C Trace Context in `params._meta` (`traceparent`, `tracestate`; SEP-414): read defensively and
 * written by the framework itself, whatever propagators the application configured. Anything
 * malformed or oversized is ignored (the request runs without a remote parent), never an error.
 */

import type { Otel } from './otel-api';

/** A parsed `traceparent` (version 00 layout; a higher version is read by its first four fields). */
export interface TraceParent {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: string;
}

/** The longest `tracestate` kept (W3C: 32 members of at most 256 characters; we keep far less). */
export const MAX_TRACESTATE_LENGTH = 512;
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

export function readTraceParent(meta: unknown): TraceParent | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const raw = (meta as Record<string, unknown>).traceparent;
  // 55 characters for version 00; a future version may append fields, so allow some room.
  if (typeof raw !== 'string' || raw.length < 55 || raw.length > 256) return undefined;
  const m = TRACEPARENT.exec(raw);
  if (!m) return undefined;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string?];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  const parent: TraceParent = { traceId, spanId, traceFlags: parseInt(flags, 16) };
  const state = (meta as Record<string, unknown>).tracestate;
  if (typeof state === 'string' && state.length <= MAX_TRACESTATE_LENGTH && /^[\x20-\x7e]*$/.test(state)) {
    parent.traceState = state;
  }
  return parent;
}

export function formatTraceParent(traceId: string, spanId: string, traceFlags: number): string {
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/**
 * The active span's context as `_meta` keys (our client's requests): undefined when the API is
 * not installed or no span is active. Reads the ambient context only; starts nothing.
 */
export function activeTraceMeta(api: Otel | undefined): Record<string, string> | undefined {
  if (!api) return undefined;
  const sc = api.trace.getSpanContext(api.context.active());
  if (!sc || !api.isSpanContextValid(sc)) return undefined;
  const meta: Record<string, string> = { traceparent: formatTraceParent(sc.traceId, sc.spanId, sc.traceFlags) };
  const state = sc.traceState?.serialize();
  if (state) meta.tracestate = state;
  return meta;
}
