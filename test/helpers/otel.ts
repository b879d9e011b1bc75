/**
 * An OpenTelemetry SDK for tests: spans into an in-memory exporter, metrics into an in-memory
 * metric exporter, AsyncLocalStorage context propagation. Registered globally, as an application's
 * NodeSDK would; each jest file has its own globals.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type MetricData,
} from '@opentelemetry/sdk-metrics';

export interface TestOtel {
  spans: InMemorySpanExporter;
  tracerProvider: BasicTracerProvider;
  /** Every metric exported so far, by name (cumulative: the last export has the totals). */
  collect(): Promise<Map<string, MetricData>>;
  shutdown(): Promise<void>;
}

export function installOtel(): TestOtel {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans,
    tracerProvider,
    async collect() {
      await reader.forceFlush();
      const byName = new Map<string, MetricData>();
      const exported = exporter.getMetrics();
      const last = exported[exported.length - 1];
      for (const scope of last?.scopeMetrics ?? []) for (const m of scope.metrics) byName.set(m.descriptor.name, m);
      return byName;
    },
    async shutdown() {
      await meterProvider.shutdown();
      await tracerProvider.shutdown();
      trace.disable();
      metrics.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The data points of one metric whose attributes include `match`. */
export function pointsOf(
  data: Map<string, MetricData>,
  name: string,
  match: Record<string, unknown> = {},
): DataPoint<unknown>[] {
  const m = data.get(name);
  const points = (m?.dataPoints ?? []) as DataPoint<unknown>[];
  return points.filter((p) => Object.entries(match).every(([k, v]) => p.attributes[k] === v));
}

export function spansNamed(spans: InMemorySpanExporter, name: string): ReadableSpan[] {
  return spans.getFinishedSpans().filter((s) => s.name === name);
}
