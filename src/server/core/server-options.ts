/** `ContextServerOptions`: everything the server (not the transport) can be configured with. */
import { IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import type { Principal } from '../../context/principal';
import { RequestStateOptions, requestStateProblems } from '../../state/request-state-options';
import { CacheHintOptions } from '../../config/cache-hint-options';
import { DEFAULT_FLOW_STORE_LIMITS, DEFAULT_MAX_TRACKED_FLOWS } from '../../state/memory-flow-store';
import type { FlowStore } from '../../state/flow-store';
import type { TaskStore } from '../../state/task-store';
import { HasMethods, IsFunction } from '../../config/option-rules';
import { noOptionsGiven, validateOptions, type OptionsSpec } from '../../config/validate-options';
import type { ReplayLintMode } from '../replay/replay-lint';
import type { PinoLikeLogger, ServerLogger } from './server-logger';
import { TelemetryOptions } from '../../telemetry/telemetry-options';
import { AskFallbackOptions } from '../../context/ask-fallback';

export { CacheHintOptions, TelemetryOptions, AskFallbackOptions };

/** Credentials a transport found on a request, for the authentication hook. */
export interface AuthRequest {
  transport: 'http' | 'stdio' | 'memory';
  headers?: Record<string, string | string[] | undefined>;
  env?: NodeJS.ProcessEnv;
}

export type Authenticate = (request: AuthRequest) => Principal | undefined | Promise<Principal | undefined>;

/**
 * The requestState options (`requestStateKey`, `encryptRequestState`, `requestStateLifetime`,
 * `maxFlowLifetime`, `maxRequestStateBytes`, `requestStateAudience`, `singleUseRequestState`,
 * `singleUseStore`) are defined once, on RequestStateOptions, and inherited here with their rules.
 */
export class ContextServerOptions extends RequestStateOptions {
  /** Legacy real-await: how long one server-to-client request may wait for its reply. */
  @IsInt() @Min(1) legacyAskTimeoutMs = 600_000;
  /** Legacy: server-to-client requests one session (stdio process or HTTP session) may have waiting for replies. */
  @IsInt() @Min(1) maxPendingAsksPerSession = 100;
  /** Legacy: bytes (their JSON) of the server-to-client requests one session has waiting. */
  @IsInt() @Min(1024) maxPendingAskBytesPerSession = 4 * 1024 * 1024;
  /** The same over all sessions of one principal (all clients without one together count as one). */
  @IsInt() @Min(1024) maxPendingAskBytesPerPrincipal = 16 * 1024 * 1024;
  /** The same over every session. */
  @IsInt() @Min(1024) maxPendingAskBytes = 256 * 1024 * 1024;
  /** How often an invalid answer is asked again on legacy before the ask fails. */
  @IsInt() @Min(0) @Max(10) maxReasks = 3;
  /** Legacy stand-in for a requestState-only round (`ctx.pause()`). */
  @IsInt() @Min(0) pauseMs = 250;
  /** Longest resource URI accepted (characters), checked before template matching. */
  @IsInt() @Min(64) @Max(1_048_576) maxUriLength = 8192;
  /** Legacy `resources/subscribe`: distinct URIs one session may hold. */
  @IsInt() @Min(1) maxSubscriptionsPerSession = 1000;
  /**
   * Bytes of the URIs one 2026 listen stream (`resourceSubscriptions`) or one legacy session (`resources/subscribe`)
   * subscribes to, in all: with the stream and session caps, what bounds a principal's subscriptions in memory.
   */
  @IsInt() @Min(1024) maxSubscriptionUriBytes = 65_536;
  /** 2026 `subscriptions/listen`: open streams at most, over all clients. */
  @IsInt() @Min(1) maxListenStreams = 10_000;
  /** Open listen streams one authenticated principal may hold. */
  @IsInt() @Min(1) maxListenStreamsPerPrincipal = 100;
  /** Open listen streams all clients without a principal may hold together. */
  @IsInt() @Min(1) maxAnonymousListenStreams = 1000;
  /** Legacy: how many times a low-level handler's `InputRequired` is answered before the call fails (-32603). */
  @IsInt() @Min(1) @Max(1000) legacyMaxInputRounds = 16;
  /** Items per page of list results. */
  @IsInt() @Min(1) @Max(10_000) pageSize = 100;
  /** 2026 cache hints for server/discover and list results. */
  @ValidateNested() @Type(() => CacheHintOptions) listCache: CacheHintOptions = new CacheHintOptions();
  /** 2026 cache hints for resources/read unless a resource sets its own. */
  @ValidateNested() @Type(() => CacheHintOptions) readCache: CacheHintOptions = new CacheHintOptions();
  /**
   * A form passed to `ctx.elicit` but not declared in the handler's `forms`: checked on first use and logged once
   * (`warn`), or refused (`refuse`).
   */
  @IsIn(['warn', 'refuse']) undeclaredForms: 'warn' | 'refuse' = 'warn';
  /** Guidance for the model, sent in initialize / server/discover. */
  @IsOptional() @IsString() instructions?: string;
  /**
   * Establishes the principal of a request (HTTP headers, stdio environment).
   */
  @IsOptional() @IsFunction() authenticate?: Authenticate;
  /** Exactly-once records of 2026 flows (`ctx.once` results, completions). In memory by default: per instance only. */
  @IsOptional() @HasMethods('claim', 'renew', 'recordOnce', 'complete', 'release') flowStore?: FlowStore;
  /**
   * Cap of the in-memory flow store: records (unfinished flows and completion records) at once. Completion records
   * go first, oldest first (a retry of one is then refused as expired); a new flow beyond the unfinished ones is
   * refused (-32603), never a live one forgotten.
   */
  @IsInt() @Min(1) maxTrackedFlows = DEFAULT_MAX_TRACKED_FLOWS;
  /** Unfinished flows of one principal (anonymous callers together are one) in the in-memory flow store. */
  @IsInt() @Min(1) maxTrackedFlowsPerPrincipal = DEFAULT_FLOW_STORE_LIMITS.maxFlowsPerPrincipal;
  /** Bytes of the in-memory flow store's records (once-results, completion results), in all and per principal. */
  @IsInt() @Min(65_536) maxFlowStoreBytes = DEFAULT_FLOW_STORE_LIMITS.maxBytes;
  @IsInt() @Min(65_536) maxFlowStoreBytesPerPrincipal = DEFAULT_FLOW_STORE_LIMITS.maxBytesPerPrincipal;
  /** How long a round waits while another copy of the same flow runs, before -32603. */
  @IsInt() @Min(0) @Max(600_000) flowBusyWaitMs = 30_000;
  /**
   * A round's hold on its flow is a lease of this length, renewed while the round runs: when the
   * instance running it dies, a retry takes the flow over once the lease lapses.
   */
  @IsInt() @Min(100) @Max(600_000) flowLeaseMs = 5_000;
  /**
   * The replay linter: 2026 rounds that still ask run twice and must ask the same questions, and
   * an `@Effect()` outside `ctx.once` in them is reported. 'warn' logs (development), 'error' fails
   * the request (the test kit turns this on), 'off' (default) costs nothing.
   */
  @IsIn(['off', 'warn', 'error']) replayLint: ReplayLintMode = 'off';
  /**
   * Tasks (SEP-2663): how long a call of a task tool (`@Tool({ task })`) may run inline before it
   * becomes a task. A call that finishes or asks within it answers as usual.
   */
  @IsInt() @Min(0) @Max(600_000) taskAfterMs = 100;
  /** How long a task stays readable after its creation (`ttlMs`). */
  @IsInt() @Min(1_000) @Max(30 * 86_400_000) taskTtlMs = 3_600_000;
  /** The polling interval suggested to clients (`pollIntervalMs`). */
  @IsInt() @Min(1) @Max(3_600_000) taskPollIntervalMs = 500;
  /** Unexpired tasks one authenticated principal may hold; a new one beyond it is refused (-32600). */
  @IsInt() @Min(1) maxTasksPerPrincipal = 100;
  /**
   * Unexpired tasks all clients without a principal may hold together. 200 keeps their worst case,
   * 200 × (maxTaskArgumentBytes + maxTaskResultBytes), at 250 MiB (docs/security.md "Budgets").
   */
  @IsInt() @Min(1) maxAnonymousTasks = 200;
  /**
   * Largest arguments a task keeps for its later rounds (bytes of JSON); a larger task call is refused (-32602).
   * When the task ends they are dropped (their SHA-256 stays).
   */
  @IsInt() @Min(1024) @Max(64 * 1_048_576) maxTaskArgumentBytes = 262_144;
  /** Largest task result kept (bytes of JSON); a larger one fails the task (-32603). */
  @IsInt() @Min(1024) @Max(64 * 1_048_576) maxTaskResultBytes = 1_048_576;
  /** Where tasks live. In memory by default (per instance); RedisModule shares them across a fleet. */
  @IsOptional() @HasMethods('create', 'get', 'replace', 'delete') taskStore?: TaskStore;
  /**
   * Server diagnostics (refusal reasons, warnings) and the opt-in access log. Defaults to stderr. A
   * pino-compatible logger (`logger.warn(obj, msg)`, recognised by its `child()` and `levels`) is adapted.
   */
  @IsOptional() @HasMethods('warn', 'error') logger?: ServerLogger | PinoLikeLogger;
  /** Traces, metrics and the access log (docs/telemetry.md). */
  @ValidateNested() @Type(() => TelemetryOptions) telemetry: TelemetryOptions = new TelemetryOptions();
  /**
   * When no person sees a question: the default fallback of every ask, the watchdog's thresholds,
   * the approval pages' lifetime and address (docs/context-and-asks.md, "When the host does not show the question").
   */
  @ValidateNested() @Type(() => AskFallbackOptions) asks: AskFallbackOptions = new AskFallbackOptions();
}

/** What `ContextServerModule.configure` takes: every option optional, cache hints partial too. */
type NestedOptions = 'listCache' | 'readCache' | 'telemetry' | 'asks';
export type ContextServerInit = Partial<Omit<ContextServerOptions, NestedOptions>> & {
  listCache?: Partial<CacheHintOptions>;
  readCache?: Partial<CacheHintOptions>;
  telemetry?: Partial<TelemetryOptions>;
  asks?: Partial<AskFallbackOptions>;
};

/** How server options are checked, nothing given aside (a test holds that shortcut to this full check). */
export const SERVER_OPTIONS_CHECK: OptionsSpec<ContextServerOptions> = {
  label: 'ContextServerOptions',
  nested: {
    listCache: CacheHintOptions,
    readCache: CacheHintOptions,
    telemetry: TelemetryOptions,
    asks: AskFallbackOptions,
  },
  checks: requestStateProblems,
};

/** Validates and freezes server options: unknown keys, each field's rules, the requestState cross-checks. */
export function resolveServerOptions(input: unknown): Readonly<ContextServerOptions> {
  return validateOptions(ContextServerOptions, input, { ...SERVER_OPTIONS_CHECK, accept: noOptionsGiven });
}
