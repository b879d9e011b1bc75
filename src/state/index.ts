export { canonicalJson, CanonicalJsonError, MAX_CANONICAL_DEPTH, type CanonicalJsonFailure } from './canonical-json';
export { encodeBase64Url, decodeBase64Url } from './base64url';
export { KeyRing } from './key-ring';
export { MIN_KEY_BYTES, MAX_RING_KEYS, type RequestStateKeyInput } from './key-material';
export { UNBOUND_PARAM_KEYS, paramsDigest, type StateBinding } from './binding';
export { FUTURE_IAT_SKEW_MS } from './claim-checks';
export { StateRefusal, type StateRefusalReason } from './state-refusal';
export type { FlowStore, FlowClaim, OnceRecord } from './flow-store';
export { FlowTakenOverError } from './flow-store';
export {
  MemoryFlowStore,
  DEFAULT_MAX_TRACKED_FLOWS,
  DEFAULT_FLOW_STORE_LIMITS,
  type FlowStoreLimits,
} from './memory-flow-store';
export { MemorySingleUseStore, type SingleUseStore } from './single-use-store';
export type { Lease, LeaseCounter } from './lease-counter';
export { MemoryLeaseCounter } from './memory-lease-counter';
export type { TokenBucketResult, TokenBucketRule, TokenBucketStore } from './token-bucket';
export { MemoryTokenBucket } from './memory-token-bucket';
export {
  RequestStateOptions,
  resolveRequestStateOptions,
  REQUEST_STATE_DEFAULTS,
  type ResolvedRequestStateOptions,
} from './request-state-options';
export {
  createRequestStateCodec,
  DEFAULT_REQUEST_STATE_AUDIENCE,
  openNow,
  sealsPlainTokens,
  type OpenedState,
  type RequestStateCodec,
  type RequestStateCodecDeps,
} from './request-state-codec';
export type { StoredTask, TaskStore } from './task-store';
export { MemoryTaskStore } from './memory-task-store';
export type {
  ApprovalFlowLimits,
  ApprovalFlowRecord,
  ApprovalStore,
  NewApprovalFlow,
  StoredPage,
} from './approval-store';
export { DEFAULT_APPROVAL_LIMITS } from './approval-store';
