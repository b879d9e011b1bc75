/**
 * One attempt's hold on its 2026 flow in the flow store: claimed before a round with requestState
 * runs (a parallel copy waits; a completed flow answers with its first result), and lazily on a
 * first round, which nobody else can know yet. Backs `ctx.once` with the store's records.
 *
 * The hold is a lease (`flowLeaseMs`) renewed every third of it while the round runs, so a round
 * whose instance dies frees its flow within one lease: the retry takes it over and replays it with
 * the recorded `ctx.once` results. A completion the store cannot record does not turn a result the
 * code produced into a refusal: the result is answered, the miss logged, the record retried.
 */
import { randomBytes } from 'node:crypto';
import { createRandomIds } from '../../state/random-pool';
import { ProtocolError } from '../../errors/protocol-error';
import type { FlowClaim, FlowStore, OnceRecord } from '../../state';
import { MemoryFlowStore } from '../../state/memory-flow-store';
import { StoreUnavailableError } from '../../state/store-unavailable';
import { hasKey, type FlowState } from '../../context/flow-state';
import type { OnceLedger } from '../../context/replay-port';
import type { ServerLogger } from '../core/server-logger';
import { stateRefused } from './flow-open';

export interface FlowHoldDeps {
  flows: FlowStore;
  flowTtlMs: number;
  flowBusyWaitMs: number;
  flowLeaseMs: number;
  logger: ServerLogger;
}

/** Flow ids come from a CSPRNG pool: one OpenSSL call per 4 KiB instead of one per flow. */
const randomId = createRandomIds();
/**
 * Holders need only be unique (they tell attempts apart in the store, across instances): a random
 * prefix per process and a counter, no random bytes per attempt. The prefix is drawn on first use,
 * not at import: edge runtimes (Workers) refuse random values in the global scope.
 */
let holderPrefix: string | undefined;
let holders = 0;

const FIRST_POLL_MS = 2;
const MAX_POLL_MS = 100;
/** How long a completion the store could not take is retried in the background (the store is down). */
const COMPLETE_RETRY_FOR_MS = 120_000;
const COMPLETE_RETRY_EVERY_MS = 500;

/** What a claim gives: nothing (held), a completed flow's result, or a promise of either. */
export type Claiming = { result: unknown } | undefined | Promise<{ result: unknown } | undefined>;

/**
 * The store, when it is a MemoryFlowStore whose `method` is the class's own (not a subclass's): its synchronous
 * twin (claimNow, completeNow, releaseNow) may stand in for it.
 */
function memoryStore(flows: FlowStore, method: 'claim' | 'complete' | 'release'): MemoryFlowStore | undefined {
  return flows instanceof MemoryFlowStore && flows[method] === MemoryFlowStore.prototype[method] ? flows : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class FlowHold implements OnceLedger {
  private _held = false;

  /** Whether this attempt holds its flow in the store (a first round that never asks does not). */
  get held(): boolean {
    return this._held;
  }
  /** The store's `ctx.once` records of the flow, once claimed. */
  private onces?: Record<string, OnceRecord>;
  private holderId?: string;
  /** The next lease renewal, while held. */
  private renewal?: NodeJS.Timeout;

  /** Ids are minted on first use: a call that never asks or fences costs no random bytes. */
  constructor(
    private readonly deps: FlowHoldDeps,
    private readonly flow: FlowState,
    /**
     * The request's IO; its signal is read only while waiting (a transport may create it lazily),
     * its principal is whose share of the store a new flow counts against.
     */
    private readonly io: { readonly signal: AbortSignal; readonly principal?: { readonly id: string } },
    /** A continuing round: when its flow started (a store that let its record go says `expired`). */
    private readonly startedAtMs?: number,
  ) {}

  get flowId(): string {
    if (!this.flow.id) this.flow.id = randomId(16);
    return this.flow.id;
  }

  private get holder(): string {
    holderPrefix ??= randomBytes(9).toString('base64url');
    return (this.holderId ??= `${holderPrefix}.${(++holders).toString(36)}`);
  }

  /**
   * Holds a flow whose round has run, only while its next round is sealed (then released): no code
   * runs in between, so no lease renewal is armed. A flow already held (a continuing round) stays as it is.
   */
  register(): Claiming {
    return this.claim(false);
  }

  /**
   * Holds the flow, waiting while another copy runs; gives the completion of a completed flow. Without a
   * promise when the store answers at once (the memory store's own `claim`): the caller awaits only a promise.
   */
  claim(renew = true): Claiming {
    if (this._held) return undefined;
    const giveUpAt = Date.now() + this.deps.flowBusyWaitMs;
    const memory = memoryStore(this.deps.flows, 'claim');
    if (!memory) return this.claimWaiting(renew, giveUpAt);
    const claim = memory.claimNow(
      this.flowId,
      this.holder,
      this.expiry(),
      this.deps.flowLeaseMs,
      this.io.principal?.id,
      this.startedAtMs,
    );
    if (claim.kind !== 'busy') return this.claimed(claim, renew);
    this.busy(FIRST_POLL_MS, giveUpAt);
    return sleep(FIRST_POLL_MS).then(() => this.claimWaiting(renew, giveUpAt, FIRST_POLL_MS * 2));
  }

  private async claimWaiting(
    renew: boolean,
    giveUpAt: number,
    firstDelay = FIRST_POLL_MS,
  ): Promise<{ result: unknown } | undefined> {
    for (let delay = firstDelay; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
      const claim = await this.deps.flows.claim(
        this.flowId,
        this.holder,
        this.expiry(),
        this.deps.flowLeaseMs,
        this.io.principal?.id,
        this.startedAtMs,
      );
      if (claim.kind !== 'busy') return this.claimed(claim, renew);
      this.busy(delay, giveUpAt);
      await sleep(delay);
    }
  }

  /** A claim's answer other than `busy`: held, or the completion, or the refusal thrown. */
  private claimed(claim: Exclude<FlowClaim, { kind: 'busy' }>, renew: boolean): { result: unknown } | undefined {
    switch (claim.kind) {
      case 'claimed':
        this._held = true;
        this.onces = claim.onces;
        if (renew) this.scheduleRenewal();
        if (claim.tookOver) {
          this.deps.logger.warn('flow taken over: the round holding it let its lease lapse (its instance died?)', {
            flowId: this.flowId,
          });
        }
        return undefined;
      case 'completed':
        return { result: claim.result };
      case 'full':
        this.deps.logger.warn('flow store full: round refused', { flowId: this.flowId, scope: claim.scope });
        throw ProtocolError.internal(
          claim.scope === 'principal'
            ? 'This caller has as many unfinished flows as maxTrackedFlowsPerPrincipal (or its byte share) ' +
                'allows; finish some, or retry after they expire'
            : 'The server is tracking as many unfinished flows as maxTrackedFlows (or maxFlowStoreBytes) ' +
                'allows; retry later',
        );
      case 'expired':
        // Its completion record was let go under pressure: refused like any expired state, never run again.
        this.deps.logger.warn('requestState refused', { reason: 'flow_record_dropped', flowId: this.flowId });
        throw stateRefused();
    }
  }

  /** Another copy holds the flow: throws when waiting `delay` more would pass `giveUpAt` (or the call is cancelled). */
  private busy(delay: number, giveUpAt: number): void {
    if (this.io.signal.aborted || Date.now() + delay > giveUpAt) {
      throw ProtocolError.internal(
        'Another request of this flow is still running (waited flowBusyWaitMs); retry after it answers',
      );
    }
  }

  /**
   * `ctx.once` records of this hold's flow: the hold itself (one object per request, nothing made
   * for the calls that never use `ctx.once`).
   */
  ledger(): OnceLedger {
    return this;
  }

  /** The store's record first, the sealed state's as a fallback (a store that lost them). */
  async lookup(key: string): Promise<OnceRecord | undefined> {
    return this.onces?.[key] ?? (hasKey(this.flow.onces, key) ? this.flow.onces[key] : undefined);
  }

  async record(key: string, outcome: OnceRecord): Promise<void> {
    await this.claim();
    await this.deps.flows.recordOnce(this.flowId, this.holder, key, outcome, this.expiry());
    (this.onces ??= {})[key] = outcome;
    this.flow.onces[key] = outcome;
  }

  /**
   * Records the completion when the flow is tracked (a one-round call never is). Never throws: the
   * code ran, so its result is the answer. A store that is down gets the record later (retried in
   * the background while nobody takes the flow over); a round that lost its flow is logged.
   * `resultJson`, when given, is `JSON.stringify(result)`: the store records it instead of stringifying again.
   */
  complete(result: unknown, resultJson?: string): Promise<void> | undefined {
    if (!this._held) return undefined;
    this.stopRenewal();
    this._held = false;
    const memory = memoryStore(this.deps.flows, 'complete');
    if (!memory) return this.completeWaiting(result, resultJson);
    try {
      memory.completeNow(this.flowId, this.holder, result, this.expiry(), resultJson);
    } catch (e) {
      this.notCompleted(e, result, resultJson);
    }
    return undefined;
  }

  private async completeWaiting(result: unknown, resultJson: string | undefined): Promise<void> {
    try {
      await this.deps.flows.complete(this.flowId, this.holder, result, this.expiry(), resultJson);
    } catch (e) {
      this.notCompleted(e, result, resultJson);
    }
  }

  private notCompleted(e: unknown, result: unknown, resultJson: string | undefined): void {
    this.deps.logger.error('flow store: the completion was not recorded; answering the result anyway', {
      flowId: this.flowId,
      error: e instanceof Error ? e.message : String(e),
    });
    if (e instanceof StoreUnavailableError) {
      this.retryComplete(result, resultJson, Date.now() + COMPLETE_RETRY_FOR_MS);
    }
  }

  private retryComplete(result: unknown, resultJson: string | undefined, giveUpAt: number): void {
    const again = (): void => {
      this.deps.flows.complete(this.flowId, this.holder, result, this.expiry(), resultJson).then(
        () => this.deps.logger.warn('flow store: the completion was recorded late', { flowId: this.flowId }),
        (e: unknown) => {
          if (e instanceof StoreUnavailableError && Date.now() < giveUpAt) {
            return this.retryComplete(result, resultJson, giveUpAt);
          }
          this.deps.logger.error('flow store: the completion was never recorded; a retry may run the last round again', {
            flowId: this.flowId,
            error: e instanceof Error ? e.message : String(e),
          });
        },
      );
    };
    setTimeout(again, COMPLETE_RETRY_EVERY_MS).unref();
  }

  /** Lets the flow go without completing it; without a promise for the memory store (see claim). */
  release(): Promise<void> | undefined {
    if (!this._held) return undefined;
    this._held = false;
    this.stopRenewal();
    const memory = memoryStore(this.deps.flows, 'release');
    if (!memory) return this.releaseWaiting();
    try {
      memory.releaseNow(this.flowId, this.holder);
    } catch (e) {
      this.notReleased(e);
    }
    return undefined;
  }

  private async releaseWaiting(): Promise<void> {
    try {
      await this.deps.flows.release(this.flowId, this.holder);
    } catch (e) {
      this.notReleased(e);
    }
  }

  private notReleased(e: unknown): void {
    this.deps.logger.error('flow store: release failed', {
      flowId: this.flowId,
      error: e instanceof Error ? e.message : String(e),
    });
  }

  /** Renews the lease every third of it while held; a failed renewal is retried at the next tick. */
  private scheduleRenewal(): void {
    if (this.renewal) return;
    this.renewal = setTimeout(() => {
      this.renewal = undefined;
      if (!this._held) return;
      this.deps.flows.renew(this.flowId, this.holder, this.deps.flowLeaseMs).then(
        (kept) => {
          if (kept) return this._held && this.scheduleRenewal();
          this.deps.logger.warn('flow lease lost: another request took the flow over; this round\'s records will be refused', {
            flowId: this.flowId,
          });
        },
        (e: unknown) => {
          this.deps.logger.warn('flow store: lease renewal failed', {
            flowId: this.flowId,
            error: e instanceof Error ? e.message : String(e),
          });
          if (this._held) this.scheduleRenewal();
        },
      );
    }, this.deps.flowLeaseMs / 3);
    this.renewal.unref();
  }

  private stopRenewal(): void {
    if (this.renewal) clearTimeout(this.renewal);
    this.renewal = undefined;
  }

  private expiry(): number {
    return Date.now() + this.deps.flowTtlMs;
  }
}
