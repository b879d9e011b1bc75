/**
 * The replay engine's shared vocabulary: what a run asks of the engine (AskRun), what the engine is
 * built from (EngineDeps), and what a round comes back as (Outcome). Its own file so that the
 * engine's parts (open, attempt, end, legacy) import the words, not each other.
 */
import type { AskPort } from '../../context/ask-port';
import { InputRequiredSignal } from '../../context/input-required';
import type { ReplayAskPort } from '../../context/replay-port';
import type { StateBag } from '../../context/state-bag';
import type { JsonObject } from '../../protocol/jsonrpc';
import type { FlowStore, RequestStateCodec } from '../../state';
import type { ContextServerOptions } from '../core/server-options';
import type { ServerLogger } from '../core/server-logger';
import type { AttemptInfo } from '../pipeline/pipeline';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';
import type { DryReplay } from './dry-replay';

/** The slice of the requestState codec the engine uses. */
export type StateSealer = Pick<RequestStateCodec, 'seal' | 'open' | 'fingerprint'>;

/**
 * How a round ends. A complete round's `json`, when given, is `JSON.stringify(value)`, made once for the
 * flow store's record and reused by the reply. An input_required result is `{ resultType, inputRequests?,
 * requestState }`; `requestsJson`, when given, is `JSON.stringify(result.inputRequests)`, made from each
 * ask's own text; `plainToken`: the requestState needs no escaping in JSON (sealsPlainTokens).
 */
export type Outcome<T> =
  | { kind: 'complete'; value: T; json?: string }
  | { kind: 'input_required'; result: JsonObject; requestsJson?: string; plainToken?: boolean };

/** The engine's own options come whole from ContextServerOptions (one definition each); the rest are services. */
export interface EngineDeps
  extends Pick<
    ContextServerOptions,
    | 'legacyAskTimeoutMs'
    | 'maxReasks'
    | 'pauseMs'
    | 'legacyMaxInputRounds'
    | 'flowBusyWaitMs'
    | 'flowLeaseMs'
    | 'replayLint'
  > {
  sealer: StateSealer;
  logger: ServerLogger;
  /** Exactly-once records of 2026 flows. */
  flows: FlowStore;
  /** How long a record outlives its last write: the requestState lifetime (ms). */
  flowTtlMs: number;
}

export interface AskRun<T> {
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  target: string;
  params: JsonObject;
  scope: RequestScope;
  io: RequestIO;
  /**
   * One attempt; `io` is the request's, or a silent one for the linter's dry replay. `attempt` is
   * given for a real attempt only (guards and interceptors run there, never in the dry replay).
   */
  run: (asks: AskPort, state: StateBag, io: RequestIO, attempt?: AttemptInfo) => T | Ended | Promise<T | Ended>;
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * What a run may return instead of throwing InputRequiredSignal: its attempt ended on an unanswered ask.
 * A plain value, so the round's end does not unwind as an exception through each async layer (issue 34).
 * Internal: a handler cannot return it (it never reaches user code).
 */
export const ENDED: unique symbol = Symbol('onemodelcontext:attempt-ended');
export type Ended = typeof ENDED;

/** A run's value as its attempt's settlement: ENDED is the signal's throw (one shared object, nothing made). */
const ENDED_SETTLED: Settled<never> = Object.freeze({ ok: false, error: InputRequiredSignal.instance });
export function settledOf<T>(value: T | Ended): Settled<T> {
  return value === ENDED ? ENDED_SETTLED : { ok: true, value };
}

/** One 2026 attempt as round-attempt.ts hands it to round-end.ts: its port, state bag and value. */
export interface Attempt<T> {
  readonly port: ReplayAskPort;
  readonly state: StateBag;
  readonly lint: DryReplay | undefined;
  /** The handler's value or throw when it came back synchronously; else `pending`. */
  readonly settled?: Settled<T>;
  readonly pending?: Promise<T | Ended>;
}
