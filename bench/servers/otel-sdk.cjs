// Preload (node --require): an OpenTelemetry SDK as an application would start it, with
// in-memory exporters instead of OTLP (what is measured is our instrumentation, not the network):
// spans through a BatchSpanProcessor (NodeSDK's default), the metrics kept by a reader, AsyncLocalStorage context
// (NodeSDK's default).
const { context, metrics, trace } = require('@opentelemetry/api');
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
const { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } = require('@opentelemetry/sdk-trace-base');
const { InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, AggregationTemporality } =
  require('@opentelemetry/sdk-metrics');

// OTEL_PARTS (default all): which of context, traces, metrics to register, to split the cost.
const parts = new Set((process.env.OTEL_PARTS || 'context,traces,metrics').split(','));
const spans = new InMemorySpanExporter();
if (parts.has('context')) context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
if (parts.has('traces')) {
  // Exported often and in big batches, so no span is dropped at these rates.
  const processor = new BatchSpanProcessor(spans, { scheduledDelayMillis: 100, maxQueueSize: 8192, maxExportBatchSize: 1024 });
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [processor] }));
}
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 1000 });
if (parts.has('metrics')) metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
// Exported data is dropped every second, as a real exporter would send it away.
setInterval(() => {
  spans.reset();
  exporter.reset();
}, Number(process.env.OTEL_RESET_MS || 1000)).unref();
