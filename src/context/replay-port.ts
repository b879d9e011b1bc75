/** 2026-07-28: asks are answered from the journal or end the attempt (replay, never suspend). */
import { FrameworkError } from '../errors/framework-error';
import { ProtocolError } from '../errors/protocol-error';
import type { ClientCapabilities, InputRequest } from '../protocol/types';
import type { AskPort } from './ask-port';
import { withRefusalReason, type Ask } from './asks';
import { questionFingerprint, rememberQuestion } from './question-texts';
import { ANY_QUESTION, forgetReasks, hasKey, type FlowState, type IncomingAnswers } from './flow-state';
import { fenced } from './effect-watch';
import { InputRequiredSignal, type PendingAsk } from './input-required';
import type { LowLevelInput } from './input-required-result';
import { answerOutcome, type AskObserver } from '../telemetry/conventions';

/** Where `ctx.once` outcomes are looked up and recorded (the engine backs it with the flow store). */
export interface OnceLedger {
  lookup(key: string): Promise<{ value?: unknown } | undefined>;
  record(key: string, outcome: { value?: unknown }): Promise<void>;
}

/**
 * One ask or once of an attempt, as the replay linter compares them; `steered`: from here the ask
 * fallback answered or rerouted the handler (an approval page), which a dry run cannot follow.
 */
export type ReplayStep =
  | { kind: 'ask'; key: string; fingerprint: string; question?: InputRequest }
  | { kind: 'once'; key: string }
  | { kind: 'steered'; key: string };

export class ReplayAskPort implements AskPort {
  readonly allowed = true;
  /** Asks of this attempt with no usable answer, in call order. */
  readonly pending: PendingAsk[] = [];
  /**
   * Every ask and `ctx.once` of this attempt, in call order: what the replay linter compares, so kept
   * only when it runs (`traced`).
   */
  readonly trace?: ReplayStep[];
  /** Per-kind counters for asks without a key; made on the first such ask. */
  private counters?: Map<string, number>;
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
    /** This round's answers; one enters the journal only when an ask uses it. */
    private readonly incoming: IncomingAnswers,
    private readonly maxReasks: number,
    readonly input?: LowLevelInput,
    /** Telemetry: each answer taken from this round's responses (kind, key, outcome; never the answer). */
    private readonly observe?: AskObserver,
    traced = true,
  ) {
    if (traced) this.trace = [];
  }

  ask<T>(ask: Ask<T>): Promise<T> {
    if (this.bound) return this.ended();
    if (!ask.supportedBy(this.capabilities)) {
      return Promise.reject(ProtocolError.missingCapability(ask.requires, Object.keys(ask.requires).join(', ')));
    }
    const key = ask.key ?? this.nextKey(ask.kind);
    const json = ask.requestJson?.() ?? JSON.stringify(ask.request);
    const journaled = hasKey(this.flow.answers, key) ? this.flow.answers[key]! : undefined;
    const answer = hasKey(this.incoming, key) ? this.incoming[key]! : undefined;
    // The fingerprint the flow recorded for this key, if any: a question sent from here is compared, not hashed.
    const fingerprint = questionFingerprint(ask.request, json, journaled?.question ?? answer?.question);
    this.trace?.push({ kind: 'ask', key, fingerprint, question: ask.request });
    if (journaled && journaled.question === fingerprint) {
      const decoded = ask.decode(journaled.answer);
      if (decoded.ok) return Promise.resolve(decoded.value);
    }
    if (!answer || (answer.question !== fingerprint && answer.question !== ANY_QUESTION)) {
      // The next round renders this question again: it compares the text instead of hashing it (issue 34).
      rememberQuestion(fingerprint, json);
      const request = forClient(ask.request, this.capabilities);
      // The text fingerprinted is the request's JSON: the input_required reply reuses it (issue 34).
      return this.suspend({ key, fingerprint, request, json: request === ask.request ? json : undefined });
    }
    delete this.incoming[key];
    const decoded = ask.decode(answer.answer);
    if (decoded.ok) {
      this.observe?.(ask.kind, key, answerOutcome(decoded.kept));
      this.flow.answers[key] = { question: fingerprint, answer: decoded.kept };
      forgetReasks(this.flow, key);
      return Promise.resolve(decoded.value);
    }
    // An answer that fails the question is asked again, saying why, at most maxReasks times (as on legacy).
    const reasks = (this.flow.reasks[key] ?? 0) + 1;
    if (reasks > this.maxReasks) {
      return Promise.reject(
        new FrameworkError('OMC_ASK_INVALID_ANSWER', `The client's answers were invalid: ${decoded.reason}`),
      );
    }
    this.flow.reasks[key] = reasks;
    return this.suspend({
      key,
      fingerprint,
      request: forClient(withRefusalReason(ask.request, decoded.reason), this.capabilities),
    });
  }

  /**
   * Runs `fn` at most once per flow: a recorded outcome is returned instead. Never runs while an
   * ask of this attempt is unanswered — the attempt ends in input_required, and on legacy the
   * handler would still be waiting for that answer.
   */
  async once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    this.trace?.push({ kind: 'once', key });
    if (this.pending.length > 0) return this.ended();
    const recorded = await this.ledger.lookup(key);
    if (recorded) return recorded.value as T;
    if (this.pending.length > 0) return this.ended();
    const value = await fenced(fn);
    await this.ledger.record(key, value === undefined ? {} : { value: JSON.parse(JSON.stringify(value)) });
    return value;
  }

  pause(key?: string): Promise<void> {
    if (this.bound) return this.ended();
    const k = key ?? this.nextKey('pause');
    this.trace?.push({ kind: 'ask', key: k, fingerprint: ANY_QUESTION });
    if (hasKey(this.flow.answers, k)) return Promise.resolve();
    return this.suspend({ key: k, fingerprint: ANY_QUESTION });
  }

  /** The ask fallback takes over from here (an approval page answers or asks): marked for the linter. */
  steer(key: string): void {
    this.trace?.push({ kind: 'steered', key });
  }

  /** Keys of pauses are answered by the mere retry: record them as answered for the next round. */
  markPausesAnswered(): void {
    for (const p of this.pending) if (!p.request) this.flow.answers[p.key] = { question: ANY_QUESTION, answer: null };
  }

  /** The port takes no more asks: the attempt has ended (see suspend). */
  private static markBound(this: void, port: ReplayAskPort): void {
    port.bound = true;
  }

  private suspend<T>(pending: PendingAsk): Promise<T> {
    if (!this.pending.some((p) => p.key === pending.key)) this.pending.push(pending);
    if (pending.request) this.flow.askedAt = Date.now();
    // Bound once this microtask checkpoint is reached (the attempt's other asks register first). Not
    // queueMicrotask: node gives each of those an async id and a bound function; a resolved promise's
    // reaction runs at the same point, with the port as its value (no closure either).
    if (this.pending.length === 1) void Promise.resolve(this).then(ReplayAskPort.markBound);
    return this.ended();
  }

  /** The signal that ends the attempt, without recording anything. */
  private ended<T>(): Promise<T> {
    let reject!: (signal: InputRequiredSignal) => void;
    const ending = new Promise<T>((_, r) => (reject = r));
    // Handled before it rejects: a handler that never awaits this ask must not trigger unhandledRejection,
    // and a promise rejected with a handler already on it skips V8's and node's unhandled-rejection
    // bookkeeping (reported, then revoked: ≈ 15 k instructions per round 1 with Promise.reject).
    ending.catch(ignore);
    reject(InputRequiredSignal.instance);
    return ending;
  }

  private nextKey(kind: string): string {
    const counters = (this.counters ??= new Map());
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return `${kind}-${n}`;
  }
}

/** `includeContext` goes only to a client that declared `sampling.context` (as on legacy revisions). */
function forClient(request: InputRequest, capabilities: ClientCapabilities): InputRequest {
  if (request.method !== 'sampling/createMessage' || request.params.includeContext === undefined) return request;
  if ((capabilities.sampling as { context?: unknown } | undefined)?.context) return request;
  const { includeContext: _omitted, ...params } = request.params;
  return { ...request, params };
}

function ignore(): void {}
