/**
 * The server-side flows of the approval-page path (src/approval): per flow, who and what it is bound to (principal,
 * tool, argument digest), the answers given on its pages, its `ctx.once` results, which call holds it
 * and whether it finished. `ApprovalStore` keeps them: `MemoryApprovalStore` (src/approval) per process (the
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
  /** The page's link as given out (a later call, or a 2026 retry, sends the same link again). */
  readonly link?: string;
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

export type NewApprovalFlow = Pick<
  ApprovalFlowRecord,
  'id' | 'principal' | 'tool' | 'argsDigest' | 'args' | 'expiresAt'
>;

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

