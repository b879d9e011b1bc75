/**
 * Choosing the era at connect (digest §1.3): a pinned version is used as given; `auto` probes
 * `server/discover` and falls back to `initialize` when the answer is not a modern one.
 */
import { FrameworkError } from '../errors/framework-error';
import { ProtocolError } from '../errors/protocol-error';
import type { JsonObject } from '../protocol/jsonrpc';
import { Meta } from '../protocol/meta';
import { isLegacyVersion, LATEST_LEGACY_VERSION, LEGACY_VERSIONS, MODERN_VERSION } from '../protocol/versions';
import { HttpStatusError, RequestTimeoutError } from './errors';
import type { ClientSession } from './client-session';
import {
  HeaderMismatchError,
  MethodNotFoundError,
  MissingCapabilityError,
  UnsupportedVersionError,
} from './server-errors';
import type { ServerDescription } from './server-description';

export async function negotiate(session: ClientSession): Promise<ServerDescription> {
  const pinned = session.options.protocolVersion;
  if (pinned !== 'auto' && pinned !== MODERN_VERSION) return initialize(session, pinned);
  session.era = 'modern';
  session.protocolVersion = MODERN_VERSION;
  const probe = await probeModern(session, pinned === MODERN_VERSION);
  if (probe.modern) return probe.description;
  return initialize(session, probe.legacyVersion ?? LATEST_LEGACY_VERSION);
}

/** `server/discover` again (modern), for a fresh description. */
export async function discover(session: ClientSession): Promise<ServerDescription> {
  return describeModern(session, await session.exchange('server/discover', {}));
}

type Probe = { modern: true; description: ServerDescription } | { modern: false; legacyVersion?: string };

async function probeModern(session: ClientSession, pinned: boolean): Promise<Probe> {
  const http = session.transport.kind === 'http';
  try {
    const result = await session.exchange(
      'server/discover',
      {},
      { timeoutMs: http ? undefined : session.options.probeTimeoutMs },
    );
    const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
    if (pinned || versions.includes(session.protocolVersion))
      return { modern: true, description: describeModern(session, result) };
    return { modern: false, legacyVersion: LEGACY_VERSIONS.find((v) => versions.includes(v)) };
  } catch (e) {
    if (pinned) {
      // The version was chosen by the caller: a discover failure only leaves the description empty.
      if (e instanceof ProtocolError || e instanceof HttpStatusError)
        return { modern: true, description: emptyModern(session) };
      throw e;
    }
    if (e instanceof UnsupportedVersionError) {
      const legacy = LEGACY_VERSIONS.find((v) => e.supported.includes(v));
      if (legacy) return { modern: false, legacyVersion: legacy };
      throw e;
    }
    if (e instanceof ProtocolError) {
      // Errors only a 2026 server sends; a 404 method-not-found is 2026 HTTP's answer to an unknown method.
      const recognised =
        e instanceof HeaderMismatchError ||
        e instanceof MissingCapabilityError ||
        (http && e instanceof MethodNotFoundError && e.httpStatus === 404);
      return recognised ? { modern: true, description: emptyModern(session) } : { modern: false };
    }
    if (e instanceof HttpStatusError && e.status >= 400 && e.status < 500) return { modern: false };
    if (e instanceof RequestTimeoutError && !http) return { modern: false };
    throw e;
  }
}

/** A new legacy session at the revision the lost one had (the server lost it: HTTP 404). */
export function reinitialize(session: ClientSession): Promise<ServerDescription> {
  return initialize(session, session.protocolVersion);
}

async function initialize(session: ClientSession, version: string): Promise<ServerDescription> {
  session.era = 'legacy';
  session.protocolVersion = version;
  const result = await session.exchange(
    'initialize',
    { protocolVersion: version, capabilities: session.capabilities, clientInfo: session.clientInfo },
    { renewing: true },
  );
  const negotiated = result.protocolVersion;
  if (!isLegacyVersion(negotiated)) {
    throw new FrameworkError(
      'OMC_CLIENT_UNSUPPORTED_VERSION',
      `The server answered initialize with protocol version ${String(negotiated)}, which this client does not speak.`,
    );
  }
  session.protocolVersion = negotiated;
  session.transport.legacySessionStarted?.(negotiated);
  await session.notify('notifications/initialized');
  session.transport.followServerStream?.();
  const capabilities = isObject(result.capabilities) ? result.capabilities : {};
  if (session.logLevel && capabilities.logging)
    await session.exchange('logging/setLevel', { level: session.logLevel }, { renewing: true });
  return {
    era: 'legacy',
    protocolVersion: negotiated,
    serverInfo: isObject(result.serverInfo) ? result.serverInfo : undefined,
    capabilities,
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    supportedVersions: [],
  };
}

function describeModern(session: ClientSession, result: JsonObject): ServerDescription {
  const meta = isObject(result._meta) ? result._meta : {};
  const info = meta[Meta.serverInfo] ?? result.serverInfo;
  return {
    era: 'modern',
    protocolVersion: session.protocolVersion,
    serverInfo: isObject(info) ? info : undefined,
    capabilities: isObject(result.capabilities) ? result.capabilities : {},
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    supportedVersions: Array.isArray(result.supportedVersions)
      ? result.supportedVersions.filter((v): v is string => typeof v === 'string')
      : [],
  };
}

function emptyModern(session: ClientSession): ServerDescription {
  return { era: 'modern', protocolVersion: session.protocolVersion, capabilities: {}, supportedVersions: [] };
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
