/** The per-process ApprovalStore (the default; `RedisApprovalStore` shares flows across a fleet). */
import type {
  ApprovalFlowLimits,
  ApprovalFlowRecord,
  ApprovalStore,
  NewApprovalFlow,
  StoredPage,
} from '../state/approval-store';

export {
  DEFAULT_APPROVAL_LIMITS,
  type ApprovalFlowLimits,
  type ApprovalFlowRecord,
  type ApprovalStore,
  type NewApprovalFlow,
  type StoredPage,
} from '../state/approval-store';

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
