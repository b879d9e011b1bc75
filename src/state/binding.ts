/**
 * What a requestState is bound to, and the injective encodings of it. Raw JS strings are never
 * hashed: createHmac/createHash turn every lone surrogate into U+FFFD, so distinct strings
 * would collide. Strings go through JSON text (which escapes lone surrogates) or strict JCS.
 */
import * as crypto from 'node:crypto';
import { createHash, createHmac } from 'node:crypto';
import { encodeBase64Url } from './base64url';
import { canonicalJsonOmitting } from './canonical-json';

export interface StateBinding {
  /** 'tools/call' | 'prompts/get' | 'resources/read' */
  method: string;
  /** Tool or prompt name, or resource URI. */
  target: string;
  /** Raw principal id; only a keyed tag of it goes into the token. Absent and present are distinct. */
  principal?: string;
  /** Protocol revision of the request, e.g. '2026-07-28'. */
  revision: string;
  /** The request params; digested minus the top-level keys in UNBOUND_PARAM_KEYS. */
  params: unknown;
}

/** Keys that legitimately change between rounds of one flow. */
export const UNBOUND_PARAM_KEYS: readonly string[] = ['_meta', 'inputResponses', 'requestState'];

const PRINCIPAL_TAG_BYTES = 16;

/**
 * base64url SHA-256 of the JCS form of params without the unbound keys. Throws
 * CanonicalJsonError for params nested deeper than 64, holding lone surrogates, or not JSON.
 */
export function paramsDigest(params: unknown): string {
  return sha256Base64Url(canonicalParams(params));
}

type OneShotHash = (alg: string, data: string, enc: 'base64url') => string;
/**
 * One-shot `crypto.hash` (Node ≥ 20.12) is several times cheaper than a Hash object for small inputs.
 * Looked up on first use, not at import: reading it loads node:crypto, which an app that never seals
 * need not load at start-up.
 */
let oneShotHash: OneShotHash | null | undefined;
function sha256Base64Url(text: string): string {
  oneShotHash ??= (crypto as { hash?: OneShotHash }).hash ?? null;
  return oneShotHash
    ? oneShotHash('sha256', text, 'base64url')
    : encodeBase64Url(createHash('sha256').update(text, 'utf8').digest());
}

/** Params' canonical text and its digest. */
export interface DigestedParams {
  readonly digest: string;
  readonly text: string;
}

/**
 * paramsDigest, remembered per params object by the opening of a continuing round: one request opens the
 * state and seals the next round over the same (never mutated) params, so the canonical form is computed
 * once. A seal with nothing opened before it (a first round) computes it without keeping it: nothing in its
 * request asks again (issue 34: a WeakMap entry per first round).
 */
const digests = new WeakMap<object, DigestedParams>();
export function paramsDigestOnce(params: unknown): string {
  if (typeof params !== 'object' || params === null) return paramsDigest(params);
  let digested = digests.get(params);
  if (digested === undefined) digests.set(params, (digested = digestOf(canonicalParams(params))));
  return digested.digest;
}

/** paramsDigestOnce with the canonical text it hashed (what a token this process mints keeps for its return). */
export function digestedParams(params: unknown): DigestedParams {
  const opened = typeof params === 'object' && params !== null ? digests.get(params) : undefined;
  return opened ?? digestOf(canonicalParams(params));
}

/**
 * paramsDigestOnce for the params of a returning round whose token this process minted with the digest
 * `claimed` of the canonical text `known`. Presented params with that same text have that digest: the texts
 * are compared instead of hashing again (issue 34: a one-shot SHA-256 costs ≈ 8 k instructions). Any other
 * text is hashed, so the check is exactly as strict as paramsDigestOnce.
 */
export function paramsDigestKnown(params: unknown, claimed: string, known: string): string {
  if (typeof params !== 'object' || params === null) return paramsDigest(params);
  let digested = digests.get(params);
  if (digested === undefined) {
    const text = canonicalParams(params);
    digested = sameText(text, known) ? { digest: claimed, text } : digestOf(text);
    digests.set(params, digested);
  }
  return digested.digest;
}

function canonicalParams(params: unknown): string {
  return params === undefined ? 'null' : canonicalJsonOmitting(params, UNBOUND_PARAM_KEYS);
}

function digestOf(text: string): DigestedParams {
  return { digest: sha256Base64Url(text), text };
}

/**
 * Equal texts, in time that depends on the presented text's length only, not on where they differ: a stolen
 * token's holder learns nothing of the params it was minted for (the memory answers once per token anyway).
 */
function sameText(presented: string, known: string): boolean {
  let diff = presented.length ^ known.length;
  for (let i = 0; i < presented.length; i++) diff |= presented.charCodeAt(i) ^ (known.charCodeAt(i) | 0);
  return diff === 0;
}

/** Keyed tag of a principal id, or undefined for "no principal". */
export function principalTag(bindingKey: Buffer, principal: string | undefined | null): string | undefined {
  if (principal === undefined || principal === null) return undefined;
  if (typeof principal !== 'string') throw new TypeError('StateBinding.principal must be a string when present');
  let tags = principalTags.get(bindingKey);
  if (!tags) principalTags.set(bindingKey, (tags = new Map()));
  let tag = tags.get(principal);
  if (tag === undefined) {
    const mac = createHmac('sha256', bindingKey)
      .update(JSON.stringify(['omc/principal/v1', principal]), 'utf8')
      .digest();
    tag = encodeBase64Url(mac.subarray(0, PRINCIPAL_TAG_BYTES));
    // Bounded: a flood of distinct principals only costs recomputation, never memory.
    if (tags.size >= MAX_CACHED_TAGS) tags.clear();
    tags.set(principal, tag);
  }
  return tag;
}

/** A user's tag is the same on every request: computed once per binding key and principal. */
const principalTags = new WeakMap<Buffer, Map<string, string>>();
const MAX_CACHED_TAGS = 10_000;

export function assertBindingShape(binding: StateBinding): void {
  if (typeof binding !== 'object' || binding === null) throw new TypeError('StateBinding must be an object');
  for (const field of ['method', 'target', 'revision'] as const) {
    if (typeof binding[field] !== 'string') throw new TypeError(`StateBinding.${field} must be a string`);
  }
}
