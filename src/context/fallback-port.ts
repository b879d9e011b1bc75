/**
 * Wraps a handler's ask port with its declared fallback. A question the client cannot show, or
 * that the watchdog takes as "not shown" (no answer by the deadline, a decline faster than a
 * person reads), goes to the fallback instead of failing or hanging: `deny` declines with a
 * reason, `argument` reads the tool's confirmation argument, `approvalPage` puts the question on a
 * page: a client that declared URL-mode elicitation is sent the page's link as a URL elicitation
 * and the call goes on with the page's answer (legacy: the held call waits for it; 2026: the retry
 * finds it); any other client's call ends with the link, and the next call continues the same flow.
 */
import { FrameworkError } from '../errors/framework-error';
import type { JsonObject } from '../protocol/jsonrpc';
import type { ClientCapabilities } from '../protocol/types';
import type { AskPort } from './ask-port';
import { urlElicitAsk } from './ask-builders';
import { askFingerprint, Capabilities, type Ask } from './asks';
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
  /** Where a URL elicitation's wait is cancelled and its completion notified (read only when used). */
  readonly channel?: UrlChannel;
  readonly now?: () => number;
}

/** The request's own channel, as a page question sent by URL elicitation uses it. */
export interface UrlChannel {
  /** Legacy 2025-11-25: a URL elicitation carries an elicitationId, and its completion is notified. */
  readonly elicitationIds: boolean;
  readonly signal: AbortSignal;
  notify(method: string, params: JsonObject): void;
}

/** A URL elicitation's answer key: the question's own key, marked (a 2026 retry answers it by this key). */
export const PAGE_KEY_SUFFIX = ':approval';

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
      const fingerprint = askFingerprint(ask.request);
      const answer = flow.answer(keyed.key, fingerprint);
      if (answer !== undefined) {
        const decoded = ask.decode(answer);
        if (decoded.ok) {
          this.replay()?.steer(keyed.key);
          return decoded.value;
        }
      }
      // Already on a page and not yet answered: the question stays there (same link), not asked anew.
      const waiting = flow.page(keyed.key, fingerprint);
      if (waiting) return this.onPage(keyed, flow, waiting);
    }
    if (!ask.supportedBy(this.o.capabilities)) return this.fallBack(keyed, 'no-capability');
    return this.watched(keyed);
  }

  async once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    const flow = await this.approvalFlow();
    const recorded = flow?.once(key);
    if (recorded) {
      this.replay()?.steer(`once:${key}`);
      return recorded.value as T;
    }
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
    const timed = await this.timed(ask);
    return timed.ok ? timed.value : this.fallBack(ask, timed.reason);
  }

  /** The ask on the client with the watchdog's verdict: its value, or why no person saw it. */
  private async timed<T>(
    ask: Ask<T> & { key: string },
  ): Promise<{ ok: true; value: T } | { ok: false; reason: NotShownReason }> {
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
      if (!instant || !fresh) return { ok: true, value };
      // Not journaled: a later round asks again rather than replaying an answer nobody gave.
      if (replay) delete replay.flow.answers[ask.key];
      return { ok: false, reason: 'instant-decline' };
    } catch (e) {
      const code = e instanceof FrameworkError ? e.code : undefined;
      if (code === 'OMC_ASK_TIMEOUT') return { ok: false, reason: 'no-answer' };
      if (code === 'OMC_ASK_UNAVAILABLE') return { ok: false, reason: 'no-capability' };
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
        // A page cannot stand in for the handler's own URL (another site's flow): declined, as with deny.
        return ask.kind === 'urlElicitation' ? ask.declined!(why) : this.toPage(ask);
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
    const page = await flow.ask({
      key: ask.key,
      fingerprint: askFingerprint(ask.request),
      request: ask.request,
      check: (answer) => {
        const decoded = ask.decode(answer);
        return decoded.ok ? { ok: true, kept: decoded.kept } : decoded;
      },
    });
    return this.onPage(ask, flow, page);
  }

  /** A question on a page: sent as a URL elicitation where the client has it, else the call ends with the link. */
  private async onPage<T>(ask: Ask<T> & { key: string }, flow: ApprovalFlowHandle, page: ApprovalNeeded): Promise<T> {
    this.replay()?.steer(ask.key);
    if (!this.approval && Capabilities.urlElicitation(this.o.capabilities) && this.o.channel) {
      const reached = await this.viaUrl(ask, flow, page, this.o.channel);
      if (reached) return reached.value;
    }
    this.approval ??= page;
    throw this.approval;
  }

  /**
   * The page's link as a URL elicitation. Consent (accept) waits for the page's answer, up to the
   * answer deadline; a person's decline declines the ask. Undefined when the page was not reached
   * (an instant decline, no answer, no channel, the wait ran out): the call ends with the link.
   */
  private async viaUrl<T>(
    ask: Ask<T> & { key: string },
    flow: ApprovalFlowHandle,
    page: ApprovalNeeded,
    channel: UrlChannel,
  ): Promise<{ value: T } | undefined> {
    const message = `Answer this on the approval page: ${page.question}`;
    const key = ask.key + PAGE_KEY_SUFFIX;
    const consent = await this.timed({ ...urlElicitAsk(page.url, message, channel.elicitationIds), key });
    if (!consent.ok) return undefined;
    if (consent.value.action !== 'accept') {
      const declined = ask.decode({ action: consent.value.action });
      if (!declined.ok) return undefined;
      this.seenByPerson(ask.key);
      return { value: declined.value };
    }
    const fingerprint = askFingerprint(ask.request);
    const { answerDeadlineMs } = this.o.policy;
    const replay = this.replay();
    const answer = replay
      ? await this.waitOverRetries(ask.key, fingerprint, flow, replay, channel.signal)
      : await flow.waitAnswer(ask.key, fingerprint, { signal: channel.signal, timeoutMs: answerDeadlineMs });
    if (answer === undefined) return undefined;
    const elicitationId = consent.value.elicitationId;
    if (elicitationId) channel.notify('notifications/elicitation/complete', { elicitationId });
    const decoded = ask.decode(answer);
    // An answer that fails the ask's own check (checked elsewhere in a fleet) gets a new page.
    if (!decoded.ok) return { value: await this.toPage(ask) };
    this.seenByPerson(ask.key);
    return { value: decoded.value };
  }

  /**
   * 2026: the page's answer, waited for over the client's retries. One retry is held at most
   * `retryHoldMs` (under a client's usual 60 s request timeout); then the round ends with
   * requestState only and the client's next retry waits on. Each wait is journaled as a pause
   * (a replayed round skips it); the wait ends `answerDeadlineMs` after the URL elicitation went out.
   */
  private async waitOverRetries(
    key: string,
    fingerprint: string,
    flow: ApprovalFlowHandle,
    replay: ReplayAskPort,
    signal: AbortSignal,
  ): Promise<unknown> {
    const now = this.o.now ?? Date.now;
    const { answerDeadlineMs, retryHoldMs } = this.o.policy;
    const until = (replay.flow.askedAt ?? now()) + answerDeadlineMs;
    for (let n = 1; ; n++) {
      const wait = `${key}${PAGE_KEY_SUFFIX}-wait-${n}`;
      if (hasKey(replay.flow.answers, wait)) continue;
      const left = until - now();
      const timeoutMs = Math.max(0, Math.min(left, retryHoldMs));
      const answer = await flow.waitAnswer(key, fingerprint, { signal, timeoutMs });
      if (answer !== undefined || left <= retryHoldMs || signal.aborted) return answer;
      await this.inner.pause(wait);
    }
  }

  /** A question a person answered on its page (or declined in the host) is no longer "not shown". */
  private seenByPerson(key: string): void {
    const at = this.notShown.findIndex((n) => n.key === key);
    if (at >= 0) this.notShown.splice(at, 1);
  }

  private async startFlow(desk: ApprovalDesk): Promise<ApprovalFlowHandle> {
    const flow = await desk.start(this.o.call);
    this.remember(flow);
    for (const [key, value] of this.onceValues ?? []) await flow.recordOnce(key, value);
    return flow;
  }

  /** The flow this call continues, looked up once (only when it could exist: an id, or a principal). */
  private approvalFlow(): ApprovalFlowHandle | Promise<ApprovalFlowHandle | undefined> | undefined {
    if (this.flow) return this.flow;
    const { desk, call, policy } = this.o;
    if (policy.fallback !== 'approvalPage' || !desk) return undefined;
    // A 2026 retry after a URL elicitation carries the flow's id in its sealed state.
    const approvalId = this.o.approvalId ?? this.replay()?.flow.approval;
    if (approvalId === undefined && call.principal === undefined) return undefined;
    return (this.resuming ??= desk.resume(call, approvalId).then((r) => {
      if (!r) return undefined;
      if (r.kind === 'refused') throw new FrameworkError('OMC_APPROVAL_REFUSED', r.reason);
      if (r.kind === 'completed') throw new ApprovalCompleted(r.result);
      this.remember(r.flow);
      return r.flow;
    }));
  }

  /** The flow this call continues; on 2026 also sealed into the next round's state. */
  private remember(flow: ApprovalFlowHandle): void {
    this.flow = flow;
    const replay = this.replay();
    if (replay) replay.flow.approval = flow.id;
  }

  private replay(): ReplayAskPort | undefined {
    return this.inner instanceof ReplayAskPort ? this.inner : undefined;
  }

  private nextKey(kind: string): string {
    const counters = (this.counters ??= new Map());
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return `${kind}-${n}`;
  }
}
