/**
 * Runs one attempt of a 2026 round: a replay port over the flow's journal, the handler called now,
 * and its value (or throw) taken as it comes back — synchronously when it returned without awaiting.
 * What follows the attempt (complete or seal) is round-end.ts's.
 */
import { ReplayAskPort } from '../../context/replay-port';
import { StateBag } from '../../context/state-bag';
import { initialState } from '../../context/flow-state';
import { watchEffects } from '../../context/effect-watch';
import type { AttemptInfo } from '../pipeline/pipeline';
import { telemetryOf } from '../request/request-telemetry-of';
import { DryReplay } from './dry-replay';
import type { AskRun, EngineDeps } from './engine-types';
import type { FlowHold } from './flow-hold';
import type { OpenedRound } from './flow-open';

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** One attempt: its port and state bag (round-end reads both), and the handler's value or promise. */
export class RoundAttempt<T> {
  /** The handler's value or throw when it came back synchronously; else `pending`. */
  settled?: Settled<T>;
  pending?: Promise<T>;

  constructor(
    readonly port: ReplayAskPort,
    readonly state: StateBag,
    readonly lint: DryReplay | undefined,
  ) {}

  /** The attempt's value or throw, once the handler settled. */
  async result(): Promise<Settled<T>> {
    if (this.settled) return this.settled;
    try {
      return { ok: true, value: await this.pending! };
    } catch (error) {
      return { ok: false, error };
    }
  }
}

/** Runs one attempt of a 2026 round, with the flow held: the handler is called now, settled later. */
export function startRound<T>(deps: EngineDeps, r: AskRun<T>, round: OpenedRound, hold: FlowHold): RoundAttempt<T> {
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
  );
  const state = new StateBag(initialState(flow));
  const info = new PortAttempt(flow.round, port);
  const attempt = new RoundAttempt<T>(port, state, lint);
  try {
    const value = lint
      ? watchEffects(lint.effects, () => r.run(port, state, r.io, info))
      : r.run(port, state, r.io, info);
    if (value instanceof Promise) attempt.pending = value;
    else attempt.settled = { ok: true, value };
  } catch (error) {
    attempt.settled = { ok: false, error };
  }
  return attempt;
}

/** What a real 2026 attempt tells the pipeline (a class: no closure per round on the hot path). */
class PortAttempt implements AttemptInfo {
  constructor(
    readonly round: number,
    private readonly port: { readonly pending: readonly unknown[] },
  ) {}

  completes(): boolean {
    return this.port.pending.length === 0;
  }
}
