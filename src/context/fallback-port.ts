/**
 * Wraps a handler's ask port with its declared fallback. A question the client cannot show, or
 * that the watchdog takes as "not shown" (no answer by the deadline, a decline faster than a
 * person reads), goes to the fallback instead of failing or hanging: `deny` declines with a
 * reason, `argument` reads the tool's confirmation argument, `approvalPage` puts the question on a
 * page and ends the call with its link; the next call continues the same flow.
 */
import { FrameworkError } from '../errors/framework-error';
import type { ClientCapabilities } from '../protocol/types';
import type { AskPort } from './ask-port';
import { askFingerprint, type Ask } from './asks';
import {
  ApprovalNeeded,
  NOT_SHOWN_TEXT,
  type ApprovalCall,
  type ApprovalDesk,
  type ApprovalFlowHandle,
  type AskPolicy,
  type NotShownNote,
  type NotShownReason,
} from './ask-fallback';
import { hasKey } from './flow-state';
import { ReplayAskPort } from './replay-port';

export interface FallbackCall {
  readonly policy: AskPolicy;
  readonly capabilities: ClientCapabilities;
  readonly call: ApprovalCall;
  /** The approval id the call carries back (`_meta` or the framework's argument). */
  readonly approvalId?: string;
  /** The `argument` fallback: what the model passed as the user's confirmation. */
  readonly confirmArgument?: boolean;
  readonly desk?: ApprovalDesk;
  /** Logs and counts each question taken as not shown. */
  readonly report: (note: NotShownNote) => void;
  readonly now?: () => number;
}

/** A repeat of a call whose approval flow already finished: answer with that flow's result. */
export class ApprovalCompleted extends Error {
  override readonly name = 'ApprovalCompleted';
  constructor(readonly result: unknown) {
    super('This approval flow already completed; the call answers with its result.');
  }
}

export class FallbackAskPort implements AskPort {
  readonly allowed = true;
  /** Questions of this call taken as not shown, in order (what `ctx.notShown` reads). */
  readonly notShown: NotShownNote[] = [];
  /** Set when a question went to a page: the call ends with this link, whatever the handler did. */
  approval?: ApprovalNeeded;
  private flow?: ApprovalFlowHandle;
  private resuming?: Promise<ApprovalFlowHandle | undefined>;
  private counters?: Map<string, number>;
  /** `ctx.once` results of this call before a flow existed: a new flow starts with them. */
  private onceValues?: Map<string, unknown>;

  constructor(
    private readonly inner: AskPort,
    private readonly o: FallbackCall,
  ) {}

  get input(): AskPort['input'] {
    return this.inner.input;
  }

  async ask<T>(ask: Ask<T>): Promise<T> {
    if (this.o.policy.fallback === 'none' || !ask.declined) return this.inner.ask(ask);
    const keyed: Ask<T> & { key: string } = { ...ask, key: ask.key ?? this.nextKey(ask.kind) };
    const flow = await this.approvalFlow();
    if (flow) {
      const answer = flow.answer(keyed.key, askFingerprint(ask.request));
      if (answer !== undefined) {
        const decoded = ask.decode(answer);
        if (decoded.ok) return decoded.value;
      }
    }
    if (!ask.supportedBy(this.o.capabilities)) return this.fallBack(keyed, 'no-capability');
    return this.watched(keyed);
  }

  async once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    const flow = await this.approvalFlow();
    const recorded = flow?.once(key);
    if (recorded) return recorded.value as T;
    const value = await this.inner.once(key, fn);
    if (this.flow) await this.flow.recordOnce(key, value);
    else if (this.o.policy.fallback === 'approvalPage') (this.onceValues ??= new Map()).set(key, value);
    return value;
  }

  pause(key?: string): Promise<void> {
    return this.inner.pause(key);
  }

  /** The call ended: a finished handler uses its approval flow up; anything else lets the next call go on. */
  async settle(outcome: { ok: true; value: unknown } | { ok: false }): Promise<void> {
    if (!this.flow) return;
    if (outcome.ok && !this.approval) await this.flow.complete(outcome.value);
    else await this.flow.release();
  }

  /** The ask on the client, timed: an instant decline or no answer by the deadline is "not shown". */
  private async watched<T>(ask: Ask<T> & { key: string }): Promise<T> {
    const { minDeclineMs, answerDeadlineMs } = this.o.policy;
    const now = this.o.now ?? Date.now;
    const replay = this.inner instanceof ReplayAskPort ? this.inner : undefined;
    // 2026: a journaled answer was timed when it came; this round's answer is timed from the last seal.
    const fresh = !replay || !hasKey(replay.flow.answers, ask.key);
    const askedAt = replay ? replay.flow.askedAt : now();
    let instant = false;
    const decode = (response: unknown): ReturnType<Ask<T>['decode']> => {
      const action = (response as { action?: unknown } | null)?.action;
      const refused = action === 'decline' || action === 'cancel';
      if (refused && askedAt !== undefined && now() - askedAt < minDeclineMs) instant = true;
      return ask.decode(response);
    };
    try {
      const value = await this.inner.ask({ ...ask, decode, timeoutMs: ask.timeoutMs ?? answerDeadlineMs });
      if (!instant || !fresh) return value;
      // Not journaled: a later round asks again rather than replaying an answer nobody gave.
      if (replay) delete replay.flow.answers[ask.key];
      return this.fallBack(ask, 'instant-decline');
    } catch (e) {
      if (e instanceof FrameworkError && e.code === 'OMC_ASK_TIMEOUT') return this.fallBack(ask, 'no-answer');
      if (e instanceof FrameworkError && e.code === 'OMC_ASK_UNAVAILABLE') return this.fallBack(ask, 'no-capability');
      throw e;
    }
  }

  private async fallBack<T>(ask: Ask<T> & { key: string }, reason: NotShownReason): Promise<T> {
    const fallback = this.o.policy.fallback;
    const note: NotShownNote = { key: ask.key, kind: ask.kind, reason, fallback };
    this.notShown.push(note);
    this.o.report(note);
    const why = NOT_SHOWN_TEXT[reason];
    switch (fallback) {
      case 'argument':
        if (ask.confirmation && this.o.confirmArgument === true) return true as T;
        return ask.declined!(`${why}; the user did not confirm in chat`);
      case 'approvalPage':
        return this.toPage(ask);
      default:
        return ask.declined!(why);
    }
  }

  private async toPage<T>(ask: Ask<T> & { key: string }): Promise<T> {
    const desk = this.o.desk;
    if (!desk) {
      throw new FrameworkError(
        'OMC_APPROVAL_UNAVAILABLE',
        'This ask falls back to an approval page, but no transport serves the pages (serve the app over HTTP, or set `asks.approvalBaseUrl`).',
      );
    }
    const flow = (await this.approvalFlow()) ?? (await this.startFlow(desk));
    this.approval ??= await flow.ask({
      key: ask.key,
      fingerprint: askFingerprint(ask.request),
      request: ask.request,
      check: (answer) => {
        const decoded = ask.decode(answer);
        return decoded.ok ? { ok: true, kept: decoded.kept } : decoded;
      },
    });
    throw this.approval;
  }

  private async startFlow(desk: ApprovalDesk): Promise<ApprovalFlowHandle> {
    const flow = await desk.start(this.o.call);
    this.flow = flow;
    for (const [key, value] of this.onceValues ?? []) await flow.recordOnce(key, value);
    return flow;
  }

  /** The flow this call continues, looked up once (only when it could exist: an id, or a principal). */
  private approvalFlow(): ApprovalFlowHandle | Promise<ApprovalFlowHandle | undefined> | undefined {
    if (this.flow) return this.flow;
    const { desk, approvalId, call, policy } = this.o;
    if (policy.fallback !== 'approvalPage' || !desk) return undefined;
    if (approvalId === undefined && call.principal === undefined) return undefined;
    return (this.resuming ??= desk.resume(call, approvalId).then((r) => {
      if (!r) return undefined;
      if (r.kind === 'refused') throw new FrameworkError('OMC_APPROVAL_REFUSED', r.reason);
      if (r.kind === 'completed') throw new ApprovalCompleted(r.result);
      this.flow = r.flow;
      return r.flow;
    }));
  }

  private nextKey(kind: string): string {
    const counters = (this.counters ??= new Map());
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return `${kind}-${n}`;
  }
}
