/** One legacy (initialize-era) session: a stdio process or an HTTP session id. */
import type { JsonObject } from '../protocol/jsonrpc';
import type { LogLevel } from '../protocol/meta';
import type { ClientCapabilities, Implementation } from '../protocol/types';
import { LATEST_LEGACY_VERSION, type LegacyVersion } from '../protocol/versions';
import { progressTokenOf, type RequestScope } from './request-scope';

export class LegacySession {
  protocolVersion: LegacyVersion = LATEST_LEGACY_VERSION;
  clientCapabilities: ClientCapabilities = {};
  clientInfo?: Implementation;
  initialized = false;
  /** Set by logging/setLevel; until then everything from `info` up is sent. */
  logLevel: LogLevel = 'info';
  readonly subscriptions = new Set<string>();

  constructor(
    /** HTTP session id, undefined on stdio and stateless HTTP. */
    readonly id?: string,
    /** The principal that opened the session; others get the same 404 as an unknown id. */
    readonly principalId?: string,
  ) {}

  scope(params: JsonObject | undefined): RequestScope {
    return {
      era: 'legacy',
      protocolVersion: this.protocolVersion,
      clientCapabilities: this.clientCapabilities,
      clientInfo: this.clientInfo,
      logLevel: this.logLevel,
      progressToken: progressTokenOf(params),
    };
  }
}
