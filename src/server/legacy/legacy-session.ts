/**
 * One legacy (initialize-era) session: a stdio process or an HTTP session id.
 *
 * legacy/ holds what only the revisions up to 2025-11-25 have: the session, its result shapes,
 * list-changed following and resources/subscribe. (Their real-await asks are the replay engine's:
 * replay/legacy-flow.ts.)
 */
import type { JsonObject } from '../../protocol/jsonrpc';
import type { LogLevel } from '../../protocol/meta';
import type { ClientCapabilities, Implementation } from '../../protocol/types';
import { LATEST_LEGACY_VERSION, type LegacyVersion } from '../../protocol/versions';
import { progressTokenOf, type RequestScope } from '../request/request-scope';

export class LegacySession {
  protocolVersion: LegacyVersion = LATEST_LEGACY_VERSION;
  clientCapabilities: ClientCapabilities = {};
  clientInfo?: Implementation;
  initialized = false;
  /** Set by logging/setLevel; until then everything from `info` up is sent. */
  logLevel: LogLevel = 'info';
  readonly subscriptions = new Set<string>();
  /** Releases of what the subscriptions told their resources (a mount's upstream subscription). */
  private readonly watches = new Map<string, () => void>();

  constructor(
    /** HTTP session id, undefined on stdio and stateless HTTP. */
    readonly id?: string,
    /** The principal that opened the session; others get the same 404 as an unknown id. */
    readonly principalId?: string,
  ) {}

  subscribe(uri: string, release: () => void): void {
    this.subscriptions.add(uri);
    this.watches.set(uri, release);
  }

  unsubscribe(uri?: string): void {
    for (const u of uri === undefined ? [...this.subscriptions] : [uri]) {
      this.subscriptions.delete(u);
      this.watches.get(u)?.();
      this.watches.delete(u);
    }
  }

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
