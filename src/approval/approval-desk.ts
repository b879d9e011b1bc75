/**
 * The approval desk: starts and resumes the server-side flows of the page path, and mints the page
 * links. A link is `<base>/<flow id>.<page nonce>.<seal>`: both ids are random (128 bits), and the
 * seal (the requestState codec, so the same keys) binds the flow, the page, the question's key, the
 * tool and the principal; a link for another flow, page or caller does not open.
 */
import { randomBytes } from 'node:crypto';
import {
  ApprovalNeeded,
  type ApprovalCall,
  type ApprovalDesk,
  type ApprovalFlowHandle,
  type ApprovalResume,
  type PageQuestion,
} from '../context/ask-fallback';
import type { ApprovalPages, PageRequest, PageResponse } from '../context/approval-pages';
import { answerApprovalPage } from './page-route';
import { paramsDigest, type RequestStateCodec, type StateBinding } from '../state';
import {
  DEFAULT_APPROVAL_LIMITS,
  MemoryApprovalStore,
  type ApprovalFlowLimits,
  type ApprovalFlowRecord,
  type ApprovalStore,
  type StoredPage,
} from './approval-flows';
import type { OpenedPage } from './page-route';

export interface ApprovalDeskOptions {
  codec: Pick<RequestStateCodec, 'seal' | 'open'>;
  /** How long a flow and its pages stay usable (ms). */
  lifetimeMs: number;
  /** Where the pages are served, e.g. `https://api.example.com/mcp/approval` (set by serveHttp when absent). */
  baseUrl?: string;
  limits?: Partial<ApprovalFlowLimits>;
  /** Where the flows live: per process unless a fleet store is given (RedisModule provides one). */
  store?: ApprovalStore;
  now?: () => number;
  /** With a shared store: how often a call waiting for a page answered elsewhere reads the store (ms). */
  pollMs?: number;
  /** Where refused pages are logged (never the answer). */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

const ID_BYTES = 16;
const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export class PageApprovalDesk implements ApprovalDesk, ApprovalPages {
  readonly flows: ApprovalStore;
  private readonly limits: ApprovalFlowLimits;
  private readonly now: () => number;
  /** The checks of the questions this process put up (a page served here runs its question's own check). */
  private readonly checks = new Map<string, { check: PageQuestion['check']; expiresAt: number }>();
  /** Calls waiting here for a page answer, by flow id: poked when this process records one. */
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly options: ApprovalDeskOptions) {
    this.now = options.now ?? (() => Date.now());
    this.limits = { ...DEFAULT_APPROVAL_LIMITS, ...options.limits };
    this.flows = options.store ?? new MemoryApprovalStore(this.now);
  }

  get baseUrl(): string | undefined {
    return this.options.baseUrl;
  }

  /** serveHttp learns its address only after listening. */
  setBaseUrl(url: string): void {
    this.options.baseUrl ??= url.replace(/\/+$/, '');
  }

  answer(req: PageRequest, res: PageResponse): Promise<void> {
    return answerApprovalPage(this, req, res, this.options.log);
  }

  async resume(call: ApprovalCall, approvalId: string | undefined): Promise<ApprovalResume | undefined> {
    const digest = paramsDigest(call.args);
    let flow: ApprovalFlowRecord | undefined;
    if (approvalId !== undefined) {
      flow = ID_PATTERN.test(approvalId) ? await this.flows.get(approvalId) : undefined;
      if (!flow) return refused('this approval id is unknown or expired; call the tool again without it');
      if (flow.principal !== call.principal) return refused('this approval belongs to another caller');
      if (flow.tool !== call.tool || flow.argsDigest !== digest) {
        return refused('this approval was given for another tool or other arguments; call again with the same arguments');
      }
      if (flow.completed) return { kind: 'completed', result: flow.completed.result };
    } else {
      // Without an id, only an authenticated caller's own open flow continues (never a finished one).
      if (call.principal === undefined) return undefined;
      flow = await this.flows.openFor(call.principal, call.tool, digest);
      if (!flow) return undefined;
    }
    const holder = randomId();
    if (!(await this.flows.hold(flow.id, holder))) {
      const now = await this.flows.get(flow.id);
      if (now?.completed) return { kind: 'completed', result: now.completed.result };
      return refused(now ? 'another call is continuing this approval right now' : 'this approval expired; call the tool again');
    }
    return { kind: 'flow', flow: this.handle(flow, holder) };
  }

  async start(call: ApprovalCall): Promise<ApprovalFlowHandle> {
    const record: ApprovalFlowRecord = {
      id: randomId(),
      principal: call.principal,
      tool: call.tool,
      argsDigest: paramsDigest(call.args),
      args: call.args,
      expiresAt: this.now() + this.options.lifetimeMs,
      answers: {},
      onces: {},
      pages: {},
    };
    const full = await this.flows.add(record, this.limits);
    if (full) throw new ApprovalRefusedError(full);
    const holder = randomId();
    if (!(await this.flows.hold(record.id, holder))) throw new ApprovalRefusedError('the approval expired at once');
    return this.handle(record, holder);
  }

  /** The page a link names, checked: known flow and page, intact seal, not answered, not expired. */
  async openPage(token: string): Promise<OpenedPage> {
    // The seal has its own `v1h.` prefix: split off the two ids only.
    const [flowId, nonce] = token.split('.', 2);
    const seal = token.slice((flowId?.length ?? 0) + (nonce?.length ?? 0) + 2);
    if (!flowId || !nonce || !seal || !ID_PATTERN.test(flowId) || !ID_PATTERN.test(nonce)) {
      return { ok: false, status: 400, reason: 'This link is not a valid approval link.' };
    }
    const flow = await this.flows.get(flowId);
    const page = flow?.pages[nonce];
    if (!flow || !page) return { ok: false, status: 410, reason: 'This approval link has expired or does not exist.' };
    try {
      await this.options.codec.open(seal, binding(flow, page));
    } catch {
      return { ok: false, status: 400, reason: 'This link is not a valid approval link.' };
    }
    if (page.answered || flow.completed) {
      return { ok: false, status: 410, reason: 'This question was already answered; the link works once.' };
    }
    return { ok: true, flow, page, check: this.checks.get(nonce)?.check };
  }

  /** Records a page's checked answer: once, and only while the flow lives (the store decides). */
  async recordAnswer(flow: ApprovalFlowRecord, page: StoredPage, kept: unknown): Promise<boolean> {
    if (flow.expiresAt <= this.now()) return false;
    const recorded = await this.flows.recordAnswer(flow.id, page.nonce, kept);
    if (recorded) {
      this.checks.delete(page.nonce);
      for (const wake of this.waiters.get(flow.id) ?? []) wake();
    }
    return recorded;
  }

  /** A call's view of its flow: the snapshot read when it was held, kept current by this call's own writes. */
  private handle(record: ApprovalFlowRecord, holder: string): ApprovalFlowHandle {
    const store = this.flows;
    return {
      id: record.id,
      answer: (key, fingerprint) => {
        const a = record.answers[key];
        return a && a.fingerprint === fingerprint ? a.answer : undefined;
      },
      once: (key) => record.onces[key],
      recordOnce: async (key, value) => {
        const outcome = value === undefined ? {} : { value: JSON.parse(JSON.stringify(value)) as unknown };
        record.onces[key] = outcome;
        await store.recordOnce(record.id, key, outcome);
      },
      ask: async (question) => this.putUp(record, question),
      page: (key, fingerprint) => {
        const open = Object.values(record.pages).find(
          (p) => p.key === key && p.fingerprint === fingerprint && !p.answered && p.link !== undefined,
        );
        return open && needed(record, open);
      },
      waitAnswer: (key, fingerprint, o) => this.waitAnswer(record, key, fingerprint, o),
      complete: (result) => store.complete(record.id, holder, result),
      release: () => store.release(record.id, holder),
    };
  }

  private async putUp(record: ApprovalFlowRecord, question: PageQuestion): Promise<ApprovalNeeded> {
    const base = this.options.baseUrl;
    if (!base) throw new ApprovalRefusedError('the approval pages have no address yet (set asks.approvalBaseUrl)');
    const unsealed = { nonce: randomId(), key: question.key, fingerprint: question.fingerprint };
    const seal = this.options.codec.seal({ k: unsealed.key }, binding(record, unsealed));
    const page: StoredPage = {
      ...unsealed,
      request: question.request,
      link: `${base}/${record.id}.${unsealed.nonce}.${seal}`,
    };
    if (!(await this.flows.addPage(record.id, page, this.limits.maxPagesPerFlow))) {
      throw new ApprovalRefusedError('this approval flow asked too many questions');
    }
    record.pages[page.nonce] = page;
    this.rememberCheck(page.nonce, question.check, record.expiresAt);
    return needed(record, page);
  }

  /**
   * Waits for a page's answer: woken at once when this process records it; a shared store (a fleet,
   * where another instance may serve the page) is also read every `pollMs`. The call listens before
   * it reads, so an answer recorded between the read and the wait is not missed.
   */
  private async waitAnswer(
    record: ApprovalFlowRecord,
    key: string,
    fingerprint: string,
    o: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<unknown> {
    const deadline = this.now() + o.timeoutMs;
    const poll = this.flows instanceof MemoryApprovalStore ? Infinity : this.options.pollMs ?? 1000;
    const listener = new AnswerListener();
    const listening = this.waiters.get(record.id) ?? this.waiters.set(record.id, new Set()).get(record.id)!;
    listening.add(listener.poke);
    try {
      for (;;) {
        listener.recorded = false;
        const flow = await this.flows.get(record.id);
        const a = flow?.answers[key];
        if (a && a.fingerprint === fingerprint) {
          record.answers[key] = a;
          return a.answer;
        }
        const left = deadline - this.now();
        if (!flow || flow.completed || left <= 0 || o.signal?.aborted) return undefined;
        await listener.next(Math.min(left, poll), o.signal);
      }
    } finally {
      listening.delete(listener.poke);
      if (listening.size === 0 && this.waiters.get(record.id) === listening) this.waiters.delete(record.id);
    }
  }

  private rememberCheck(nonce: string, check: PageQuestion['check'], expiresAt: number): void {
    const now = this.now();
    for (const [n, c] of this.checks) if (c.expiresAt <= now) this.checks.delete(n);
    this.checks.set(nonce, { check, expiresAt });
  }
}

/**
 * One waiting call: poked when an answer is recorded here; `next` resolves on a poke (even one that
 * came before it was called), after `ms`, or on abort.
 */
class AnswerListener {
  recorded = false;
  private resume?: () => void;
  readonly poke = (): void => {
    this.recorded = true;
    this.resume?.();
  };

  next(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.recorded) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.resume = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, 2 ** 31 - 1));
      signal?.addEventListener('abort', done, { once: true });
      this.resume = done;
    });
  }
}

/** A flow that cannot start or show a page (a cap, no address): the call gets a clear error. */
export class ApprovalRefusedError extends Error {
  override readonly name = 'ApprovalRefusedError';
}

/** A page as the call that put it up reports it: the flow's id, the link, when it expires, the question. */
function needed(record: ApprovalFlowRecord, page: StoredPage): ApprovalNeeded {
  const message = (page.request.params as { message?: unknown }).message;
  return new ApprovalNeeded(record.id, page.link!, record.expiresAt, typeof message === 'string' ? message : '');
}

function binding(flow: ApprovalFlowRecord, page: Pick<StoredPage, 'nonce' | 'key'>): StateBinding {
  return {
    method: 'approval/page',
    target: flow.tool,
    principal: flow.principal,
    revision: 'approval-page',
    params: { flow: flow.id, page: page.nonce, key: page.key, args: flow.argsDigest },
  };
}

function randomId(): string {
  return randomBytes(ID_BYTES).toString('base64url');
}

function refused(reason: string): ApprovalResume {
  return { kind: 'refused', reason };
}
