/** 2026-07-28: asks are answered from the journal or end the attempt (replay, never suspend). */
import { ProtocolError } from '../errors/protocol-error';
import type { ClientCapabilities } from '../protocol/types';
import type { AskPort } from './ask-port';
import { askFingerprint, type Ask } from './asks';
import { ANY_QUESTION, type FlowState } from './flow-state';
import { InputRequiredSignal, type PendingAsk } from './input-required';

export class ReplayAskPort implements AskPort {
  readonly allowed = true;
  /** Asks of this attempt with no usable answer, in call order. */
  readonly pending: PendingAsk[] = [];
  private readonly counters = new Map<string, number>();

  constructor(
    readonly flow: FlowState,
    private readonly capabilities: ClientCapabilities,
  ) {}

  ask<T>(ask: Ask<T>): Promise<T> {
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

  async once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    const slot = `once:${key}`;
    if (Object.prototype.hasOwnProperty.call(this.flow.o, slot)) return this.flow.o[slot] as T;
    const value = await fn();
    this.flow.o[slot] = value === undefined ? null : JSON.parse(JSON.stringify(value));
    return value;
  }

  pause(key?: string): Promise<void> {
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
