/**
 * `@opentelemetry/api` is an optional peer: loaded once, on first use, and only if installed. A
 * missing package (or one that fails to load) means no telemetry, never an error.
 */
import type * as OtelApi from '@opentelemetry/api';

export type Otel = typeof OtelApi;

let loaded: Otel | null | undefined;

/**
 * The API, or undefined when the package is not installed or nothing has registered with it yet.
 * Memoized once loaded: one lookup per process. Until an SDK (or anything else) registers a global,
 * every API call would answer with its no-ops, so the package (~45 modules) is not loaded for that.
 */
export function otelApi(): Otel | undefined {
  if (loaded === undefined) {
    if (!otelGlobalRegistered()) return undefined;
    loaded = tryLoad();
  }
  return loaded ?? undefined;
}

/** The API keeps its registered providers on `globalThis[Symbol.for('opentelemetry.js.api.<major>')]`. */
function otelGlobalRegistered(): boolean {
  return Object.getOwnPropertySymbols(globalThis).some((s) => s.description?.startsWith('opentelemetry.js.api.'));
}

function tryLoad(): Otel | null {
  try {
    // A plain require, not an import: the package may be absent, and the ESM entry re-exports this
    // CommonJS build, so `require` is always there (and a test's module registry sees the lookup).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('@opentelemetry/api') as Otel;
  } catch {
    return null;
  }
}

/** Whether an SDK registered a tracer provider (the API's own proxy still delegates to the no-op one). */
export function tracerProviderLive(api: Otel): boolean {
  const provider = api.trace.getTracerProvider();
  if (!(provider instanceof api.ProxyTracerProvider)) return true;
  return provider.getDelegate() !== new api.ProxyTracerProvider().getDelegate();
}

/** Whether an SDK registered a meter provider (the global one is otherwise the API's no-op). */
export function meterProviderLive(api: Otel): boolean {
  const meter = api.metrics.getMeterProvider().getMeter('onemodelcontext-probe');
  return meter.constructor !== api.createNoopMeter().constructor;
}
