/**
 * The per-request handle a handler receives (method parameter or constructor injection):
 * who is asking, progress and logging, cancellation, and the asks, whose answers come from the
 * replay journal on 2026-07-28 or from real requests on legacy revisions.
 */
import type { Era } from '../protocol/versions';
import type { JsonObject, RequestId } from '../protocol/jsonrpc';
import { logSeverity, type LogLevel } from '../protocol/meta';
import type { ClientCapabilities, CreateMessageResult, Implementation, Root } from '../protocol/types';
import { CONTEXT_MARKER } from '../registry/definitions';
import type { AskPort } from './ask-port';
import {
  confirmAsk,
  elicitAsk,
  rootsAsk,
  sampleAsk,
  urlElicitAsk,
  type AskOptions,
  type ElicitOutcome,
  type SampleRequest,
  type UrlElicitOutcome,
} from './ask-builders';
import { Capabilities } from './asks';
import type { Principal } from './principal';
import type { NotShownNote } from './ask-fallback';
import type { AskDeclaredKind } from '../metadata/options';
import { FrameworkError } from '../errors/framework-error';
import type { StateBag } from './state-bag';

export interface ContextInit {
  era: Era;
  protocolVersion: string;
  requestId: RequestId;
  method: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  signal: AbortSignal;
  principal?: Principal;
  /** The client's network address where the transport knows it (HTTP). */
  clientAddress?: string;
  progressToken?: string | number;
  /** Lowest level sent to the client; undefined sends no log messages. */
  logLevel?: LogLevel;
  /** Sends a notification related to this request (its SSE stream, or the connection). */
  notify: (method: string, params: JsonObject) => void;
  /** Legacy sessions: a notification that may outlive the request (see RequestIO.notifySession). */
  notifySession?: (method: string, params: JsonObject) => void;
  asks: AskPort;
  state: StateBag;
  /** Legacy 2025-11-25: URL elicitations carry an elicitationId. */
  urlElicitationIds: boolean;
  /** Called with each form before `elicit` asks it: lets the server note (or refuse) an undeclared form. */
  checkForm?: (form: Function) => void;
  /** What the handler declared it may ask (`asks.kinds`): any other ask throws `OMC_ASK_UNDECLARED`. */
  declaredAsks?: { readonly owner: string; readonly kinds: readonly AskDeclaredKind[] };
}

export type ClientFeature = 'elicitation' | 'elicitation.url' | 'sampling' | 'sampling.tools' | 'roots';

export class Context {
  static readonly [CONTEXT_MARKER] = true;

  private lastProgress = -Infinity;

  /** @internal The server builds one per request; handlers receive it, they never construct it. */
  constructor(private readonly init: ContextInit) {}

  get era(): Era {
    return this.init.era;
  }
  get protocolVersion(): string {
    return this.init.protocolVersion;
  }
  get requestId(): RequestId {
    return this.init.requestId;
  }
  get method(): string {
    return this.init.method;
  }
  get client(): { capabilities: ClientCapabilities; info?: Implementation } {
    return { capabilities: this.init.clientCapabilities, info: this.init.clientInfo };
  }
  get signal(): AbortSignal {
    return this.init.signal;
  }
  get principal(): Principal | undefined {
    return this.init.principal;
  }
  /** The client's network address where the transport knows it (HTTP); undefined otherwise. */
  get clientAddress(): string | undefined {
    return this.init.clientAddress;
  }
  /** Values that survive replays on 2026-07-28 (sealed into requestState). Strings only. */
  get state(): StateBag {
    return this.init.state;
  }

  /** Whether the client retries input_required results itself (2026-07-28); on legacy the framework does it. */
  get isMrtrSupported(): boolean {
    return this.init.era === 'modern';
  }
  /** Low-level path: the answers to the input requests of the previous `InputRequired`, by key. */
  get inputResponses(): Readonly<Record<string, unknown>> | undefined {
    return this.init.asks.input?.inputResponses;
  }
  /** Low-level path: the `requestState` string of the previous `InputRequired` (opened, authenticated). */
  get requestState(): string | undefined {
    return this.init.asks.input?.requestState;
  }

  /**
   * The questions of this call that no person saw (no capability, no answer by the deadline, an
   * instant decline), each routed to its declared fallback: key, kind, reason and fallback.
   */
  get notShown(): readonly NotShownNote[] {
    return this.init.asks.notShown ?? [];
  }

  /** Whether the client declared what an ask needs; lets a handler degrade instead of failing. */
  supports(feature: ClientFeature): boolean {
    const c = this.init.clientCapabilities;
    switch (feature) {
      case 'elicitation':
        return Capabilities.formElicitation(c);
      case 'elicitation.url':
        return Capabilities.urlElicitation(c);
      case 'sampling':
        return Capabilities.sampling(c);
      case 'sampling.tools':
        return Capabilities.samplingTools(c);
      case 'roots':
        return Capabilities.roots(c);
    }
  }

  /** Reports progress when the client asked for it (a progressToken); values must increase. */
  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const token = this.init.progressToken;
    if (token === undefined || this.init.signal.aborted || progress <= this.lastProgress) return;
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.init.notify('notifications/progress', params);
  }

  /** Sends a log message when the client's level lets it through. */
  async log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    const min = this.init.logLevel;
    if (min === undefined || this.init.signal.aborted || logSeverity(level) < logSeverity(min)) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.init.notify('notifications/message', params);
  }

  /** Asks a yes/no question; resolves true only when the user accepted and confirmed. */
  confirm(message: string, options?: AskOptions): Promise<boolean> {
    this.declared('confirm');
    return this.init.asks.ask(confirmAsk(message, options));
  }

  /** Asks the user to fill a form described by a DTO; an accepted answer is a validated instance. */
  async elicit<T extends object>(form: new () => T, message: string, options?: AskOptions): Promise<ElicitOutcome<T>> {
    this.declared('elicit');
    this.init.checkForm?.(form);
    return this.init.asks.ask(elicitAsk(form, message, options));
  }

  /** Sends the user to a URL (out-of-band flow); resolves with their consent. */
  elicitUrl(url: string, message: string, options?: AskOptions): Promise<UrlElicitOutcome> {
    this.declared('elicitUrl');
    return this.init.asks.ask(urlElicitAsk(url, message, this.init.urlElicitationIds, options));
  }

  /**
   * Legacy 2025-11-25: tells the client an out-of-band URL elicitation finished. May be called after
   * the request returned (or threw `ProtocolError.urlElicitationRequired`), e.g. from the flow's
   * callback: it then goes on the session's own channel, as the spec allows.
   */
  completeUrlElicitation(elicitationId: string): void {
    if (!this.init.urlElicitationIds) return;
    const params = { elicitationId };
    // Called as methods: an init may implement them on its prototype.
    if (this.init.notifySession) this.init.notifySession('notifications/elicitation/complete', params);
    else this.init.notify('notifications/elicitation/complete', params);
  }

  /** Asks the client's model for a completion. */
  sample(request: SampleRequest | string, options?: AskOptions): Promise<CreateMessageResult> {
    this.declared('sample');
    return this.init.asks.ask(sampleAsk(request, options));
  }

  /** Asks the client for its roots. */
  listRoots(options?: AskOptions): Promise<Root[]> {
    this.declared('roots');
    return this.init.asks.ask(rootsAsk(options));
  }

  /** A handler that declared its asks may make only those (a declaration a host can trust). */
  private declared(kind: AskDeclaredKind): void {
    const d = this.init.declaredAsks;
    if (!d || d.kinds.includes(kind)) return;
    throw new FrameworkError(
      'OMC_ASK_UNDECLARED',
      `${d.owner} asked ${kind} but its decorator declares asks.kinds ${JSON.stringify(d.kinds)}; add '${kind}' to it.`,
    );
  }

  /** Runs a side effect once per completed flow; replays return its recorded (JSON) result. */
  once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    return this.init.asks.once(key, fn);
  }

  /** Ends this round with no question (2026: a requestState-only round; legacy: a short wait). */
  pause(key?: string): Promise<void> {
    return this.init.asks.pause(key);
  }
}
