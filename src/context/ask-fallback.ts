/**
 * What happens when a host does not show a question to a person: the declared fallback of an ask,
 * the watchdog thresholds that decide "not shown", and the approval desk a page fallback uses.
 */
import { IsIn, IsInt, IsOptional, IsUrl, Max, Min } from 'class-validator';
import type { InputRequest } from '../protocol/types';

/**
 * - `none`: today's behaviour (a missing capability is an error; a decline is a decline).
 * - `deny`: the ask resolves as declined, with a reason the handler can read.
 * - `approvalPage`: the framework serves the question as a single-use web page.
 * - `argument`: the tool gains an optional confirmation argument the model must ask the user for.
 */
export type AskFallback = 'none' | 'deny' | 'approvalPage' | 'argument';
export const ASK_FALLBACKS: readonly AskFallback[] = ['none', 'deny', 'approvalPage', 'argument'];

/** Why a question is taken as not shown to a person. */
export type NotShownReason =
  /** The client did not declare the capability (or has no channel for it). */
  | 'no-capability'
  /** No answer within the watchdog's deadline. */
  | 'no-answer'
  /** Declined (or cancelled) faster than a person could read the question. */
  | 'instant-decline';

export const NOT_SHOWN_TEXT: Readonly<Record<NotShownReason, string>> = {
  'no-capability': 'the client cannot show this question (it did not declare the capability)',
  'no-answer': 'the client did not answer within the ask deadline',
  'instant-decline': 'the client declined faster than a person could read the question',
};

/** App-wide defaults (`ContextServerOptions.asks`); a tool's `asks.fallback` overrides the fallback. */
export class AskFallbackOptions {
  /** The fallback of every ask whose handler declares none. */
  @IsIn(ASK_FALLBACKS) fallback: AskFallback = 'none';
  /** Watchdog: a decline or cancel faster than this (ms) counts as "not shown" (0: never). */
  @IsInt() @Min(0) @Max(60_000) minDeclineMs = 700;
  /** Watchdog, legacy: with a fallback declared, an ask unanswered this long (ms) counts as "not shown". */
  @IsInt() @Min(1) answerDeadlineMs = 120_000;
  /**
   * 2026, URL mode: how long one retry is held waiting for the page's answer (ms) before the round
   * ends with requestState only and the client retries (keep it under the hosts' request timeout).
   */
  @IsInt() @Min(1) @Max(300_000) retryHoldMs = 25_000;
  /** How long an approval page (and its flow) stays usable (ms). */
  @IsInt() @Min(1000) @Max(86_400_000) approvalLifetimeMs = 900_000;
  /** Tools whose declared asks this client cannot serve, with no fallback: `hide` or `annotate` them in lists. */
  @IsIn(['hide', 'annotate', 'show']) unservableTools: 'hide' | 'annotate' | 'show' = 'annotate';
  /**
   * Where approval links point, e.g. `https://api.example.com/mcp/approval` (the MCP endpoint's path +
   * `/approval`). serveHttp fills it in from its address; behind a proxy or in a framework, set it.
   */
  @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  approvalBaseUrl?: string;
}

/** The fallback and thresholds one handler's asks run with. */
export interface AskPolicy {
  readonly fallback: AskFallback;
  readonly minDeclineMs: number;
  readonly answerDeadlineMs: number;
  /** 2026, URL mode: how long one retry waits for a page's answer. */
  readonly retryHoldMs: number;
}

/** Thrown by an ask whose answer will come from an approval page: the call ends with the link. */
export class ApprovalNeeded extends Error {
  override readonly name = 'ApprovalNeeded';
  constructor(
    readonly approvalId: string,
    readonly url: string,
    readonly expiresAt: number,
    readonly question: string,
  ) {
    super('This question is answered on an approval page; the call ends with its link.');
  }
}

/** The call an ask belongs to, as the approval desk binds it. */
export interface ApprovalCall {
  readonly principal?: string;
  readonly tool: string;
  /** The tool's arguments as called (without the framework's approval argument). */
  readonly args: Record<string, unknown>;
}

/** A question waiting on a page. */
export interface PageQuestion {
  readonly key: string;
  readonly fingerprint: string;
  readonly request: InputRequest;
  /** The ask's own check of an answer (the form DTO's validation): what is kept, or why it is refused. */
  readonly check: (answer: unknown) => { ok: true; kept: unknown } | { ok: false; reason: string };
}

/** One question taken as not shown, and the fallback it went to. */
export interface NotShownNote {
  readonly key: string;
  readonly kind: string;
  readonly reason: NotShownReason;
  readonly fallback: AskFallback;
}

/** The server-side flow a page path continues: its answers, onces and holder. */
export interface ApprovalFlowHandle {
  readonly id: string;
  /** The page's answer to the question with this key and fingerprint, if given. */
  answer(key: string, fingerprint: string): unknown;
  /** A recorded `ctx.once` outcome of an earlier call of this flow. */
  once(key: string): { value?: unknown } | undefined;
  recordOnce(key: string, value: unknown): Promise<void>;
  /** Puts a question on the page; resolves with its link. */
  ask(question: PageQuestion): Promise<ApprovalNeeded>;
  /** The page this question already waits on (not yet answered), with its link: a later call stays on it. */
  page(key: string, fingerprint: string): ApprovalNeeded | undefined;
  /**
   * Waits until the person answers this question's page (on any instance): its answer, or undefined
   * at the deadline, on abort, or when the flow is gone.
   */
  waitAnswer(key: string, fingerprint: string, o: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown>;
  /** The handler finished: the flow is used up; a repeat of the call gets `result`. */
  complete(result: unknown): Promise<void>;
  /** The call ended without finishing (another page, or an error): let the next call continue. */
  release(): Promise<void>;
}

/** The outcome of resuming: a flow to continue, a finished flow's result, or a refusal to explain. */
export type ApprovalResume =
  | { kind: 'flow'; flow: ApprovalFlowHandle }
  | { kind: 'completed'; result: unknown }
  | { kind: 'refused'; reason: string };

/** The framework's approval pages, as an ask port sees them (the app provides the implementation). */
export interface ApprovalDesk {
  /** The flow this call continues: by the approval id it carries, or by its principal and arguments. */
  resume(call: ApprovalCall, approvalId: string | undefined): Promise<ApprovalResume | undefined>;
  /** Starts a flow for this call (its first page comes with `ask`). */
  start(call: ApprovalCall): Promise<ApprovalFlowHandle>;
}

/** The `_meta` key that carries an approval id back on the next call (besides the `approvalId` argument). */
export const APPROVAL_META_KEY = 'io.onemodelcontext/approval';
