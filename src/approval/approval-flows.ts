/**
 * The server-side flows of the approval-page path: per flow, who and what it is bound to (principal,
 * tool, argument digest), the answers given on its pages, its `ctx.once` results, which call holds it
 * and whether it finished. `ApprovalStore` keeps them: `MemoryApprovalStore` per process (the
 * default), `RedisApprovalStore` (onemodelcontext/redis) across a fleet, so a page served by one
 * instance and the call continuing on another meet. Everything stored is plain JSON.
 */
import type { InputRequest } from '../protocol/types';

/** A question on a page: `nonce` names the page (its link), `answered` once the person submitted. */
export interface StoredPage {
  readonly nonce: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly request: InputRequest;
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
  readonly answers: Record<string, { fingerprint: string; answer: unknown }>;
  readonly onces: Record<string, { value?: unknown }>;
  readonly pages: Record<string, StoredPage>;
  /** The call continuing the flow now. */
  holder?: string;
  completed?: { result: unknown };
}

export type NewApprovalFlow = Pick<ApprovalFlowRecord, 'id' | 'principal' | 'tool' | 'argsDigest' | 'args' | 'expiresAt'>;

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

/** Where approval flows live. Every write that must happen once is decided by the store. */
export interface ApprovalStore {
  /** Adds a flow, or says why not (the caps are per caller and overall; nothing live is dropped). */
  add(flow: NewApprovalFlow, limits: ApprovalFlowLimits): Promise<string | undefined>;
  /** A live flow by id (a snapshot). */
  get(id: string): Promise<ApprovalFlowRecord | undefined>;
  /** The newest open (not completed) flow of this principal for this tool and these arguments. */
  openFor(principal: string, tool: string, argsDigest: string): Promise<ApprovalFlowRecord | undefined>;
  /** Makes `holder` the call continuing the flow: false if another holds it or the flow is gone or done. */
  hold(id: string, holder: string): Promise<boolean>;
  /** Puts a page up: false past `maxPages` or when the flow is gone. */
  addPage(id: string, page: StoredPage, maxPages: number): Promise<boolean>;
  /** Records a page's answer: true for the first answer of a live, unfinished flow's page only. */
  recordAnswer(id: string, nonce: string, answer: unknown): Promise<boolean>;
  recordOnce(id: string, key: string, outcome: { value?: unknown }): Promise<void>;
  /** The holder finished: the flow is used up and remembers the result. */
  complete(id: string, holder: string, result: unknown): Promise<void>;
  release(id: string, holder: string): Promise<void>;
}

const ANONYMOUS = '\u0000anonymous';

/** Per process. Snapshots are copies, so callers see the same thing as from a shared store. */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly flows = new Map<string, ApprovalFlowRecord>();
  private readonly byCaller = new Map<string, Set<string>>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  get size(): number {
    return this.flows.size;
  }

  async add(flow: NewApprovalFlow, limits: ApprovalFlowLimits): Promise<string | undefined> {
    this.sweep();
    const caller = flow.principal ?? ANONYMOUS;
    const mine = this.byCaller.get(caller);
    if (this.flows.size >= limits.maxFlows) return 'the server has too many approvals open; try again later';
    if ((mine?.size ?? 0) >= limits.maxFlowsPerCaller) return 'too many approvals open for this caller; finish or let some expire';
    this.flows.set(flow.id, { ...flow, answers: {}, onces: {}, pages: {} });
    (mine ?? this.byCaller.set(caller, new Set()).get(caller)!).add(flow.id);
    return undefined;
  }

  async get(id: string): Promise<ApprovalFlowRecord | undefined> {
    const flow = this.live(id);
    return flow && structuredClone(flow);
  }

  async openFor(principal: string, tool: string, argsDigest: string): Promise<ApprovalFlowRecord | undefined> {
    let found: ApprovalFlowRecord | undefined;
    for (const id of this.byCaller.get(principal) ?? []) {
      const flow = this.live(id);
      if (flow && !flow.completed && flow.tool === tool && flow.argsDigest === argsDigest) found = flow;
    }
    return found && structuredClone(found);
  }

  async hold(id: string, holder: string): Promise<boolean> {
    const flow = this.live(id);
    if (!flow || flow.completed || (flow.holder !== undefined && flow.holder !== holder)) return false;
    flow.holder = holder;
    return true;
  }

  async addPage(id: string, page: StoredPage, maxPages: number): Promise<boolean> {
    const flow = this.live(id);
    if (!flow || Object.keys(flow.pages).length >= maxPages) return false;
    flow.pages[page.nonce] = structuredClone(page);
    return true;
  }

  async recordAnswer(id: string, nonce: string, answer: unknown): Promise<boolean> {
    const flow = this.live(id);
    const page = flow?.pages[nonce];
    if (!flow || !page || page.answered || flow.completed) return false;
    page.answered = true;
    flow.answers[page.key] = { fingerprint: page.fingerprint, answer: structuredClone(answer) };
    return true;
  }

  async recordOnce(id: string, key: string, outcome: { value?: unknown }): Promise<void> {
    const flow = this.live(id);
    if (flow) flow.onces[key] = structuredClone(outcome);
  }

  async complete(id: string, holder: string, result: unknown): Promise<void> {
    const flow = this.live(id);
    if (!flow || flow.holder !== holder) return;
    flow.completed = { result: structuredClone(result) };
    flow.holder = undefined;
  }

  async release(id: string, holder: string): Promise<void> {
    const flow = this.live(id);
    if (flow?.holder === holder) flow.holder = undefined;
  }

  private live(id: string): ApprovalFlowRecord | undefined {
    const flow = this.flows.get(id);
    if (flow && flow.expiresAt <= this.now()) {
      this.forget(flow);
      return undefined;
    }
    return flow;
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
