/**
 * `ContextServerOptions.telemetry`: what the server reports through `@opentelemetry/api` and its
 * logger. Traces and metrics cost nothing until an OpenTelemetry SDK registers a provider; the
 * switches here turn them off even then. See docs/telemetry.md.
 */
import { IsBoolean } from 'class-validator';

export class TelemetryOptions {
  /** One span per request when an SDK registered a tracer provider. */
  @IsBoolean() traces = true;
  /** `mcp.server.operation.duration` and the framework's own metrics when an SDK registered a meter provider. */
  @IsBoolean() metrics = true;
  /**
   * Opt-in: `mcp.resource.uri` on resources/read spans and the URI as the span name's target
   * (high cardinality, and a URI may carry what the user typed).
   */
  @IsBoolean() resourceUri = false;
  /** Opt-in: one `info` line per request on the server logger (method, target, era, outcome, duration, flow id). */
  @IsBoolean() accessLog = false;
}
