/**
 * The replay linter's second run of a round: the same journal, answers and state as the first run
 * saw (copied before it), a ledger that returns what the first run's `ctx.once` calls got and never
 * runs a body, no notifications and no channel for asks. Only its trace is kept.
 */
import type { AskPort } from '../../context/ask-port';
import { plainFlow, type FlowState, type IncomingAnswers } from '../../context/flow-state';
import type { LowLevelInput } from '../../context/input-required-result';
import { ReplayAskPort, type OnceLedger, type ReplayStep } from '../../context/replay-port';
import { StateBag } from '../../context/state-bag';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';

interface Replayable<T> {
  scope: RequestScope;
  io: RequestIO;
  run: (asks: AskPort, state: StateBag, io: RequestIO) => T; // its value is not compared
}

export class DryReplay {
  /** `@Effect()` calls the first run made outside `ctx.once`. */
  readonly effects: string[] = [];
  /** The first run's ledger: the real one, remembering what each once got. */
  readonly ledger: OnceLedger;
  private readonly seen = new Map<string, { value?: unknown }>();
  private readonly snapshot: { flow: FlowState; incoming: IncomingAnswers; lowLevel?: LowLevelInput };

  constructor(flow: FlowState, incoming: IncomingAnswers, lowLevel: LowLevelInput | undefined, real: OnceLedger) {
    this.snapshot = structuredClone({ flow: plainFlow(flow), incoming, lowLevel });
    this.ledger = {
      lookup: async (key) => {
        const recorded = await real.lookup(key);
        if (recorded) this.seen.set(key, recorded);
        return recorded;
      },
      record: async (key, outcome) => {
        this.seen.set(key, outcome);
        await real.record(key, outcome);
      },
    };
  }

  async replay<T>(r: Replayable<T>, maxReasks: number): Promise<readonly ReplayStep[]> {
    const { flow, incoming, lowLevel } = this.snapshot;
    const ledger: OnceLedger = { lookup: async (key) => this.seen.get(key) ?? {}, record: async () => undefined };
    const port = new ReplayAskPort(flow, r.scope.clientCapabilities, ledger, incoming, maxReasks, lowLevel);
    const io: RequestIO = { signal: r.io.signal, notify: () => undefined, principal: r.io.principal };
    try {
      await r.run(port, new StateBag(flow.state), io);
    } catch {
      // The first run's outcome stands; only the questions are compared.
    }
    return port.trace ?? [];
  }
}
