/**
 * Runs one attempt of a 2026 round: a replay port over the flow's journal, the handler called now,
 * and its value (or throw) taken as it comes back — synchronously when it returned without awaiting
 * and asked nothing (the common call: no promise). Otherwise the attempt goes on to round-end.ts,
 * which completes it or seals the next round.
 */
import { ReplayAskPort } from '../../context/replay-port';
import { StateBag } from '../../context/state-bag';
import { initialState } from '../../context/flow-state';
import { watchEffects } from '../../context/effect-watch';
import type { AttemptInfo } from '../pipeline/pipeline';
import { telemetryOf } from '../request/request-telemetry-of';
import { DryReplay } from './dry-replay';
import {
  settledOf,
  type AskRun,
  type Attempt,
  type Ended,
  type EngineDeps,
  type Outcome,
  type Settled,
} from './engine-types';
import type { FlowHold } from './flow-hold';
import type { OpenedRound } from './flow-open';
import { endRound } from './round-end';

/**
 * One attempt: its port and state bag (round-end reads both), and the handler's value or promise. It is
 * also what the attempt tells the pipeline (AttemptInfo): one object per round, no closure.
 */
class RoundAttempt<T> implements Attempt<T>, AttemptInfo {
  /** The handler's value or throw when it came back synchronously; else `pending`. */
  settled?: Settled<T>;
  pending?: Promise<T | Ended>;

  constructor(
    readonly round: number,
    readonly port: ReplayAskPort,
    readonly state: StateBag,
    readonly lint: DryReplay | undefined,
  ) {}

  completes(): boolean {
    return this.port.pending.length === 0;
  }
}

/**
 * One round, with the flow held: the attempt, then its end. Settles synchronously when the handler
 * returned without awaiting, asked nothing and the flow is not held (nothing to record).
 */
export function runRound<T>(
  deps: EngineDeps,
  r: AskRun<T>,
  round: OpenedRound,
  hold: FlowHold,
): Outcome<T> | Promise<Outcome<T>> {
  const attempt = startRound(deps, r, round, hold);
  if (attempt.settled?.ok && attempt.port.pending.length === 0 && !hold.held) {
    return { kind: 'complete', value: attempt.settled.value };
  }
  return endRound(deps, r, round, hold, attempt);
}

/** Runs one attempt of a 2026 round, with the flow held: the handler is called now, settled later. */
function startRound<T>(deps: EngineDeps, r: AskRun<T>, round: OpenedRound, hold: FlowHold): RoundAttempt<T> {
  const { flow, incoming, lowLevel } = round;
  const telemetry = telemetryOf(r.scope);
  const lint = deps.replayLint === 'off' ? undefined : new DryReplay(flow, incoming, lowLevel, hold.ledger());
  const port = new ReplayAskPort(
    flow,
    r.scope.clientCapabilities,
    lint?.ledger ?? hold.ledger(),
    incoming,
    deps.maxReasks,
    lowLevel,
    telemetry && ((kind, key, outcome) => telemetry.ask(kind, key, outcome)),
    lint !== undefined, // the trace is the linter's
  );
  const state = new StateBag(initialState(flow));
  const attempt = new RoundAttempt<T>(flow.round, port, state, lint);
  try {
    const value = lint
      ? watchEffects(lint.effects, () => r.run(port, state, r.io, attempt))
      : r.run(port, state, r.io, attempt);
    if (value instanceof Promise) attempt.pending = value;
    else attempt.settled = settledOf(value);
  } catch (error) {
    attempt.settled = { ok: false, error };
  }
  return attempt;
}
