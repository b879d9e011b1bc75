/** The 2026-07-28 request envelope: `_meta` fields (digest §1.1) and HTTP request-metadata headers (§4.2). */
import type { JsonObject } from '../protocol/jsonrpc';
import {
  encodeHeaderValue,
  headerParamValue,
  headerTextFor,
  PARAM_HEADER_PREFIX,
  type HeaderParam,
} from '../protocol/mcp-header';
import { Meta, type LogLevel } from '../protocol/meta';
import type { ClientCapabilities, Implementation } from '../protocol/types';
import { otelApi } from '../telemetry/otel-api';
import { activeTraceMeta } from '../telemetry/trace-context';

export interface EnvelopeInput {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  logLevel?: LogLevel;
  progressToken?: string | number;
}

/** Params with the modern `_meta` merged in (the caller's own `_meta` keys are kept). */
export function withModernMeta(params: JsonObject, e: EnvelopeInput): JsonObject {
  const own = (params._meta as JsonObject | undefined) ?? {};
  const meta: JsonObject = {
    ...own,
    [Meta.protocolVersion]: e.protocolVersion,
    [Meta.clientCapabilities]: e.capabilities,
    [Meta.clientInfo]: e.clientInfo,
  };
  if (e.logLevel) meta[Meta.logLevel] = e.logLevel;
  if (e.progressToken !== undefined) meta.progressToken = e.progressToken;
  return { ...params, _meta: meta };
}

/** Legacy requests carry only the progress token in `_meta`. */
export function withLegacyMeta(params: JsonObject, progressToken?: string | number): JsonObject {
  if (progressToken === undefined) return params;
  return { ...params, _meta: { ...((params._meta as JsonObject | undefined) ?? {}), progressToken } };
}

/**
 * The active span's W3C trace context in `_meta` (`traceparent`, `tracestate`) when
 * `@opentelemetry/api` is installed and a span is active; a `traceparent` the caller set is kept.
 */
export function withTraceContext(params: JsonObject): JsonObject {
  const own = params._meta as JsonObject | undefined;
  if (own?.traceparent !== undefined) return params;
  const trace = activeTraceMeta(otelApi());
  return trace ? { ...params, _meta: { ...own, ...trace } } : params;
}

/** `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` mirrors of a tool's arguments. */
export function modernHeaders(
  protocolVersion: string,
  method: string,
  params: JsonObject,
  headerParams: readonly HeaderParam[] = [],
): Record<string, string> {
  const headers: Record<string, string> = { 'MCP-Protocol-Version': protocolVersion, 'Mcp-Method': method };
  const name = nameOf(method, params);
  if (name !== undefined) headers['Mcp-Name'] = encodeHeaderValue(name);
  if (method === 'tools/call') {
    for (const p of headerParams) {
      const value = headerParamValue(params.arguments, p);
      if (
        typeof value === 'string' ||
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isFinite(value))
      ) {
        headers[`${PARAM_HEADER_PREFIX}${p.name}`] = headerTextFor(value);
      }
    }
  }
  return headers;
}

function nameOf(method: string, params: JsonObject): string | undefined {
  const v =
    method === 'resources/read'
      ? params.uri
      : method === 'tools/call' || method === 'prompts/get'
        ? params.name
        : method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel'
          ? params.taskId
          : undefined;
  return typeof v === 'string' ? v : undefined;
}
