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
  /**
   * Subscribed URIs, each with the release of what it told its resource (a mount's upstream
   * subscription). Made on the first subscribe: most sessions never subscribe, and an empty Map
   * per idle session is a sizeable share of its memory.
   */
  private watches?: Map<string, () => void>;

  constructor(
    /** HTTP session id, undefined on stdio and stateless HTTP. */
    readonly id?: string,
    /** The principal that opened the session; others get the same 404 as an unknown id. */
    readonly principalId?: string,
  ) {}

  isSubscribed(uri: string): boolean {
    return this.watches?.has(uri) ?? false;
  }

  get subscriptionCount(): number {
    return this.watches?.size ?? 0;
  }

  subscribedUris(): Iterable<string> {
    return this.watches?.keys() ?? [];
  }

  subscribe(uri: string, release: () => void): void {
    (this.watches ??= new Map()).set(uri, release);
  }

  unsubscribe(uri?: string): void {
    const watches = this.watches;
    if (watches === undefined) return;
    for (const u of uri === undefined ? [...watches.keys()] : [uri]) {
      watches.get(u)?.();
      watches.delete(u);
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
