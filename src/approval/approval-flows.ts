/**
 * The server-side flows of the approval-page path: per flow, who and what it is bound to (principal,
 * tool, argument digest), the answers given on its pages, its `ctx.once` results, which call holds it
 * and whether it finished. Per process: a page answer, the call that reads it and the `ctx.once`
 * fence must meet in one place, so an app behind a load balancer pins `/approval/` and its
 * sessions to one instance (a shared store is future work, see the docs).
 */
import type { PageQuestion } from '../context/ask-fallback';

/** A question on a page: `nonce` names the page (its link), `answered` once the person submitted. */
export interface PageEntry extends PageQuestion {
  readonly nonce: string;
  answered?: boolean;
}

export interface ApprovalFlowRecord {
  readonly id: string;
  readonly principal?: string;
  readonly tool: string;
  readonly argsDigest: string;
  /** The arguments as called, shown on the page. */
  readonly args: Record<string, unknown>;
  readonly expiresAt: number;
  readonly answers: Map<string, { fingerprint: string; answer: unknown }>;
  readonly onces: Map<string, { value?: unknown }>;
  readonly pages: Map<string, PageEntry>;
  /** The call continuing the flow now, and until when its claim holds. */
  holder?: { id: number; until: number };
  completed?: { result: unknown };
}

/** What a page link opens to, or why it does not. */
export type OpenedPage =
  | { ok: true; flow: ApprovalFlowRecord; page: PageEntry }
  | { ok: false; status: 400 | 404 | 410; reason: string };

/** What the page route uses of the desk. */
export interface PageDesk {
  openPage(token: string): Promise<OpenedPage>;
  recordAnswer(flow: ApprovalFlowRecord, page: PageEntry, kept: unknown): boolean;
}

export interface ApprovalFlowLimits {
  /** Flows open at once, over all callers. */
  maxFlows: number;
  /** Flows one principal (or all anonymous callers together) may have open. */
  maxFlowsPerCaller: number;
  /** Pages (questions) one flow may put up. */
  maxPagesPerFlow: number;
}

export const DEFAULT_APPROVAL_LIMITS: ApprovalFlowLimits = {
  maxFlows: 10_000,
  maxFlowsPerCaller: 100,
  maxPagesPerFlow: 32,
};

const ANONYMOUS = '\u0000anonymous';

export class ApprovalFlows {
  private readonly flows = new Map<string, ApprovalFlowRecord>();
  private readonly byCaller = new Map<string, Set<string>>();

  constructor(
    private readonly limits: ApprovalFlowLimits,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.flows.size;
  }

  /** A live flow by id (an expired one is forgotten here). */
  get(id: string): ApprovalFlowRecord | undefined {
    const flow = this.flows.get(id);
    if (flow && flow.expiresAt <= this.now()) {
      this.forget(flow);
      return undefined;
    }
    return flow;
  }

  /** The newest open flow of this principal for this tool and these arguments. */
  openFor(principal: string, tool: string, argsDigest: string): ApprovalFlowRecord | undefined {
    let found: ApprovalFlowRecord | undefined;
    for (const id of this.byCaller.get(principal) ?? []) {
      const flow = this.get(id);
      if (flow && !flow.completed && flow.tool === tool && flow.argsDigest === argsDigest) found = flow;
    }
    return found;
  }

  /** Adds a flow, or says why not (the caps are per caller and overall; nothing live is dropped). */
  add(flow: ApprovalFlowRecord): string | undefined {
    this.sweep();
    const caller = flow.principal ?? ANONYMOUS;
    const mine = this.byCaller.get(caller);
    if (this.flows.size >= this.limits.maxFlows) return 'the server has too many approvals open; try again later';
    if ((mine?.size ?? 0) >= this.limits.maxFlowsPerCaller) return 'too many approvals open for this caller; finish or let some expire';
    this.flows.set(flow.id, flow);
    (mine ?? this.byCaller.set(caller, new Set()).get(caller)!).add(flow.id);
    return undefined;
  }

  private forget(flow: ApprovalFlowRecord): void {
    this.flows.delete(flow.id);
    const caller = flow.principal ?? ANONYMOUS;
    const mine = this.byCaller.get(caller);
    mine?.delete(flow.id);
    if (mine?.size === 0) this.byCaller.delete(caller);
  }

  private sweep(): void {
    const now = this.now();
    for (const flow of this.flows.values()) if (flow.expiresAt <= now) this.forget(flow);
  }
}
