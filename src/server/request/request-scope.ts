/**
 * What a request knows about its client and revision, whichever era it came in on.
 *
 * request/ is what every method reads of its request: the scope (this file), the transport's IO,
 * the URI and header parameters, the request's telemetry.
 */
import { ProtocolError } from '../../errors/protocol-error';
import type { JsonObject } from '../../protocol/jsonrpc';
import { checkEnvelope, type EnvelopeCheck } from '../../protocol/modern-envelope';
import { isLogLevel, Meta, type LogLevel } from '../../protocol/meta';
import type { ClientCapabilities, Implementation } from '../../protocol/types';
import { MODERN_SUPPORTED, MODERN_VERSION, type Era } from '../../protocol/versions';

export interface RequestScope {
  era: Era;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** Lowest log level sent for this request; undefined: none (2026 without logLevel). */
  logLevel?: LogLevel;
  progressToken?: string | number;
}

function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function progressTokenOf(params: JsonObject | undefined): string | number | undefined {
  const meta = params?._meta;
  if (!isRecord(meta)) return undefined;
  const t = meta.progressToken;
  return typeof t === 'string' || (typeof t === 'number' && Number.isFinite(t)) ? t : undefined;
}

/**
 * Validates the 2026-07-28 `_meta` envelope (digest §1.1): a missing field → -32602, a bad version
 * → -32022. `envelope`: the check when the caller already made it.
 */
export function readModernEnvelope(
  params: JsonObject | undefined,
  envelope: EnvelopeCheck = checkEnvelope(params),
): RequestScope {
  if (envelope.kind === 'missing') throw ProtocolError.invalidParams(envelope.message);
  if (envelope.kind === 'unsupported') throw ProtocolError.unsupportedVersion(MODERN_SUPPORTED, envelope.version);
  const meta = envelope.meta;
  const caps = meta[Meta.clientCapabilities];
  const info = meta[Meta.clientInfo];
  const level = meta[Meta.logLevel];
  if (level !== undefined && !isLogLevel(level))
    throw ProtocolError.invalidParams(`Invalid log level ${JSON.stringify(level)}`);
  return {
    era: 'modern',
    protocolVersion: MODERN_VERSION,
    clientCapabilities: caps as ClientCapabilities,
    clientInfo: isRecord(info) ? (info as Implementation) : undefined,
    logLevel: level as LogLevel | undefined,
    progressToken: progressTokenOf(params),
  };
}
