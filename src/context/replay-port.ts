/** 2026-07-28: asks are answered from the journal or end the attempt (replay, never suspend). */
import { ProtocolError } from '../errors/protocol-error';
import type { ClientCapabilities } from '../protocol/types';
import type { AskPort } from './ask-port';
import { askFingerprint, type Ask } from './asks';
import { ANY_QUESTION, type FlowState } from './flow-state';
import { InputRequiredSignal, type PendingAsk } from './input-required';

/** Where `ctx.once` outcomes are looked up and recorded (the engine backs it with the flow store). */
export interface OnceLedger {
  lookup(key: string): Promise<{ value?: unknown } | undefined>;
  record(key: string, outcome: { value?: unknown }): Promise<void>;
}

export class ReplayAskPort implements AskPort {
  readonly allowed = true;
  /** Asks of this attempt with no usable answer, in call order. */
  readonly pending: PendingAsk[] = [];
  private readonly counters = new Map<string, number>();
  /**
   * Set one microtask after the first unanswered ask: from then on the attempt is bound to end in
   * input_required, so a later ask (say, in the handler's `catch`) is not sent to the user — on
   * legacy that code never runs. Asks made in the same synchronous turn (`Promise.all`) still are.
   */
  private bound = false;

  constructor(
    readonly flow: FlowState,
    private readonly capabilities: ClientCapabilities,
    private readonly ledger: OnceLedger,
  ) {}

  ask<T>(ask: Ask<T>): Promise<T> {
    if (this.bound) return this.ended();
    if (!ask.supportedBy(this.capabilities)) {
      return Promise.reject(ProtocolError.missingCapability(ask.requires, Object.keys(ask.requires).join(', ')));
    }
    const key = ask.key ?? this.nextKey(ask.kind);
    const fingerprint = askFingerprint(ask.request);
    const answer = this.flow.a[key];
    if (answer && (answer.f === fingerprint || answer.f === ANY_QUESTION)) {
      const decoded = ask.decode(answer.r);
      if (decoded.ok) {
        answer.f = fingerprint;
        return Promise.resolve(decoded.value);
      }
      delete this.flow.a[key];
    }
    return this.suspend({ key, fingerprint, request: ask.request });
  }

  /**
   * Runs `fn` at most once per flow: a recorded outcome is returned instead. Never runs while an
   * ask of this attempt is unanswered — the attempt ends in input_required, and on legacy the
   * handler would still be waiting for that answer.
   */
  async once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    if (this.pending.length > 0) return this.ended();
    const recorded = await this.ledger.lookup(key);
    if (recorded) return recorded.value as T;
    if (this.pending.length > 0) return this.ended();
    const value = await fn();
    await this.ledger.record(key, value === undefined ? {} : { value: JSON.parse(JSON.stringify(value)) });
    return value;
  }

  pause(key?: string): Promise<void> {
    if (this.bound) return this.ended();
    const k = key ?? this.nextKey('pause');
    if (this.flow.a[k]) return Promise.resolve();
    return this.suspend({ key: k, fingerprint: ANY_QUESTION });
  }

  /** Keys of pauses are answered by the mere retry: record them as answered for the next round. */
  markPausesAnswered(): void {
    for (const p of this.pending) if (!p.request) this.flow.a[p.key] = { f: ANY_QUESTION, r: null };
  }

  private suspend<T>(pending: PendingAsk): Promise<T> {
    if (!this.pending.some((p) => p.key === pending.key)) this.pending.push(pending);
    if (this.pending.length === 1) queueMicrotask(() => (this.bound = true));
    return this.ended();
  }

  /** The signal that ends the attempt, without recording anything. */
  private ended<T>(): Promise<T> {
    const rejected = Promise.reject<T>(InputRequiredSignal.instance);
    // Mark handled: a handler that never awaits this ask must not trigger unhandledRejection.
    rejected.catch(() => undefined);
    return rejected;
  }

  private nextKey(kind: string): string {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    return `${kind}-${n}`;
  }
}
