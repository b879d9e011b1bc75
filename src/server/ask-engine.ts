/**
 * Runs a handler that may ask. On 2026-07-28 it replays: open the round (sealed state and this
 * round's answers), run the handler from the top, and either complete or seal `input_required`
 * with every unanswered ask of the attempt. On legacy revisions the same handler really awaits
 * the client (legacy-flow.ts); nothing is replayed.
 */
import { ReplayAskPort } from '../context/replay-port';
import { InputRequired } from '../context/input-required-result';
import { StateBag } from '../context/state-bag';
import { watchEffects } from '../context/effect-watch';
import type { AskPort } from '../context/ask-port';
import { ProtocolError } from '../errors/protocol-error';
import type { JsonObject } from '../protocol/jsonrpc';
import { DryReplay } from './dry-replay';
import { FlowHold } from './flow-hold';
import { openRound, type OpenedRound } from './flow-open';
import { lowLevelRequests, sealLowLevel, sealPending } from './flow-seal';
import { runLegacy } from './legacy-flow';
import { replayProblems, reportReplayProblems } from './replay-lint';
import type { RequestIO } from './request-io';
import type { RequestScope } from './request-scope';
import type { ServerLogger } from './server-logger';
import type { ContextServerOptions } from './server-options';
import type { FlowStore, RequestStateCodec } from '../state';
import type { AttemptInfo } from './pipeline/pipeline';

/** The slice of the requestState codec the engine uses. */
export type StateSealer = Pick<RequestStateCodec, 'seal' | 'open' | 'fingerprint'>;

export type Outcome<T> = { kind: 'complete'; value: T } | { kind: 'input_required'; result: JsonObject };

/** The engine's own options come whole from ContextServerOptions (one definition each); the rest are services. */
export interface EngineDeps
  extends Pick<
    ContextServerOptions,
    'legacyAskTimeoutMs' | 'maxReasks' | 'pauseMs' | 'legacyMaxInputRounds' | 'flowBusyWaitMs' | 'replayLint'
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
  run: (asks: AskPort, state: StateBag, io: RequestIO, attempt?: AttemptInfo) => Promise<T>;
}

export async function runWithAsks<T>(deps: EngineDeps, r: AskRun<T>): Promise<Outcome<T>> {
  if (r.scope.era === 'legacy') return { kind: 'complete', value: await runLegacy(deps, r) };
  const round = await openRound(deps, r);
  const hold = new FlowHold(deps, round.flow, () => r.io.signal);
  if (round.continues) {
    // Claim before running anything: a flow that completed answers with its first result.
    const done = await hold.claim();
    if (done) return { kind: 'complete', value: done.result as T };
  }
  try {
    return await runRound(deps, r, round, hold);
  } finally {
    await hold.release();
  }
}

/** One attempt of a 2026 round, with the flow held. */
async function runRound<T>(deps: EngineDeps, r: AskRun<T>, round: OpenedRound, hold: FlowHold): Promise<Outcome<T>> {
  const { flow, incoming, lowLevel } = round;
  const lint = deps.replayLint === 'off' ? undefined : new DryReplay(flow, incoming, lowLevel, hold.ledger(flow));
  const port = new ReplayAskPort(
    flow,
    r.scope.clientCapabilities,
    lint?.ledger ?? hold.ledger(flow),
    incoming,
    deps.maxReasks,
    lowLevel,
  );
  const state = new StateBag(flow.state);
  const info: AttemptInfo = { round: flow.round, completes: () => port.pending.length === 0 };
  const attempt = await settle(
    lint
      ? () => watchEffects(lint.effects, () => r.run(port, state, r.io, info))
      : () => r.run(port, state, r.io, info),
  );

  if (!attempt.ok && attempt.error instanceof ProtocolError) throw attempt.error;
  if (!attempt.ok && attempt.error instanceof InputRequired) {
    const requests = lowLevelRequests(attempt.error, r.scope.clientCapabilities);
    await hold.claim();
    return {
      kind: 'input_required',
      result: sealLowLevel(deps.sealer, round, requests, attempt.error.requestState, state),
    };
  }
  if (port.pending.length === 0) {
    if (!attempt.ok) throw attempt.error;
    await hold.complete(attempt.value);
    return { kind: 'complete', value: attempt.value };
  }
  if (lint) {
    const replay = await lint.replay(r, deps.maxReasks);
    reportReplayProblems(
      deps.replayLint,
      deps.logger,
      `${r.method} ${r.target}`,
      replayProblems(port.trace, replay, lint.effects),
    );
  }
  // A new flow is registered once it needs a next round (so a full store refuses it now).
  await hold.claim();
  port.markPausesAnswered();
  return { kind: 'input_required', result: sealPending(deps.sealer, round, port.pending, state) };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function settle<T>(fn: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}
