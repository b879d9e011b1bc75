/** server/discover (2026) and initialize (legacy). */
import type { JsonObject } from '../../protocol/jsonrpc';
import type { ClientCapabilities, Implementation } from '../../protocol/types';
import { MODERN_SUPPORTED, negotiateLegacyVersion } from '../../protocol/versions';
import type { LegacySession } from '../legacy/legacy-session';
import { legacyImplementation, legacyServerCapabilities } from '../legacy/legacy-shapes';
import type { ServerCore } from '../core/server-core';

export function discover(core: ServerCore): JsonObject {
  const result: JsonObject = {
    supportedVersions: [...MODERN_SUPPORTED],
    capabilities: core.capabilities.modern,
  };
  if (core.options.instructions) result.instructions = core.options.instructions;
  return result;
}

function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function initialize(core: ServerCore, session: LegacySession, params: JsonObject | undefined): JsonObject {
  session.protocolVersion = negotiateLegacyVersion(params?.protocolVersion);
  session.clientCapabilities = isRecord(params?.capabilities) ? (params.capabilities as ClientCapabilities) : {};
  session.clientInfo = isRecord(params?.clientInfo) ? (params.clientInfo as Implementation) : undefined;
  const result: JsonObject = {
    protocolVersion: session.protocolVersion,
    capabilities: legacyServerCapabilities(core.capabilities.legacy, session.protocolVersion),
    serverInfo: legacyImplementation(core.info, session.protocolVersion),
  };
  if (core.options.instructions) result.instructions = core.options.instructions;
  return result;
}
