/**
 * Seals handler state into an opaque requestState and opens what a client echoes back.
 * Pure: knows nothing of HTTP or handlers. Every failure on open is a StateRefusal with a
 * reason for the server log; the caller answers all of them with one uniform wire error.
 *
 * HMAC mode (default) signs the claims: the client cannot change them but CAN READ the
 * payload (base64url JSON). Set `encryptRequestState` when the payload must stay secret.
 */
import { createRandomPool } from './random-pool';
import { FrameworkError } from '../errors/framework-error';
import { assertBindingShape, digestedParams, principalTag, type StateBinding } from './binding';
import {
  claimsLength,
  decodeClaims,
  payloadJson,
  TOKEN_ID_BYTES,
  type ClaimsDraft,
  type StateClaims,
} from './claims';
import type { DerivedStateKey } from './key-ring';
import { openEnvelope, sealEnvelope, tokenLength, type EnvelopeMode } from './envelope';
import {
  isResolvedRequestStateOptions,
  resolveRequestStateOptions,
  type RequestStateOptions,
  type ResolvedRequestStateOptions,
} from './request-state-options';
import { MemorySingleUseStore, type SingleUseStore } from './single-use-store';
import { StateRefusal } from './state-refusal';
import { checkBinding, checkTimes } from './claim-checks';
import { TokenKeys } from './token-keys';
import { MintedTokens } from './minted-tokens';

export interface OpenedState {
  payload: unknown;
  /** When the flow's first round was sealed (ms); pass it back to `seal` to keep the flow bound. */
  flowStartedAt: number;
}

export interface RequestStateCodec {
  /** Hex fingerprint of the minting key: equal across instances that share the key. */
  readonly fingerprint: string;
  readonly encrypted: boolean;
  /**
   * Throws FrameworkError('OMC_STATE_TOO_LARGE') when the token would exceed maxRequestStateBytes.
   * `handedOverJson`: `JSON.stringify(payload)`, given when the caller gives `payload` away: an object made for
   * this seal, nesting no deeper than 64, which nothing else holds or will change and which reads as its JSON
   * text would (strings, booleans, null, finite numbers other than -0, plain objects and arrays, no undefined).
   * The text is sealed as given, and when the token comes back to this process it opens to that very object
   * instead of a parse of the text (issue 34). Without it, the payload is stringified and every open parses.
   */
  seal(payload: unknown, binding: StateBinding, flowStartedAt?: number, handedOverJson?: string): string;
  /** Resolves the payload, or rejects with a StateRefusal. */
  open(token: unknown, binding: StateBinding): Promise<OpenedState>;
}

export interface RequestStateCodecDeps {
  /** Clock in epoch milliseconds. */
  now?: () => number;
  /** Source of random bytes (IVs, salts, token ids, the ephemeral key). */
  random?: (n: number) => Buffer;
}

/** Used when neither the options nor the server supply an audience. */
export const DEFAULT_REQUEST_STATE_AUDIENCE = 'onemodelcontext';

export function createRequestStateCodec(
  options: Partial<RequestStateOptions> | ResolvedRequestStateOptions = {},
  deps: RequestStateCodecDeps = {},
): RequestStateCodec {
  const settings = codecSettings(options, deps);
  const codec: RequestStateCodec = Object.freeze({
    // A getter: the keys are derived on first use, not when the codec is built.
    get fingerprint() {
      return settings.keyRing.fingerprint;
    },
    encrypted: settings.mode === 'aead',
    seal: (payload: unknown, binding: StateBinding, flowStartedAt?: number, handedOverJson?: string) =>
      sealState(settings, payload, binding, flowStartedAt, handedOverJson),
    open: async (token: unknown, binding: StateBinding) => openState(settings, token, binding),
  });
  madeHere.set(codec, settings);
  return codec;
}

/** The codecs made here, with their settings: every token they seal is `v1.` or `v1e.` and base64url (envelope.ts). */
const madeHere = new WeakMap<object, CodecSettings>();

/**
 * Whether every token `sealer` seals is printable ASCII without `"` or `\` (a codec made by
 * createRequestStateCodec): its JSON text is itself between quotes, so a reply need not scan it.
 */
export function sealsPlainTokens(sealer: object): boolean {
  return madeHere.has(sealer);
}

/**
 * `sealer.open`, without its promise when the token opens without waiting (a codec made here whose
 * single-use store, if any, answers at once): a refusal is thrown, not rejected. The request path's
 * open (issue 34: an async function and an await less per continuing round).
 */
export function openNow(
  sealer: Pick<RequestStateCodec, 'open'>,
  token: unknown,
  binding: StateBinding,
): OpenedState | Promise<OpenedState> {
  const settings = madeHere.get(sealer);
  return settings ? openState(settings, token, binding) : sealer.open(token, binding);
}

/** Everything seal and open need, resolved once from the options. */
interface CodecSettings {
  now: () => number;
  random: (n: number) => Buffer;
  keyRing: ResolvedRequestStateOptions['keyRing'];
  mode: EnvelopeMode;
  audience: string;
  maxBytes: number;
  lifetimeMs: number;
  flowLifetimeMs: number;
  singleUse: SingleUseStore | undefined;
  tokenKeys: TokenKeys;
  minted: MintedTokens;
}

function codecSettings(
  options: Partial<RequestStateOptions> | ResolvedRequestStateOptions,
  deps: RequestStateCodecDeps,
): CodecSettings {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? createRandomPool();
  const resolved = isResolvedRequestStateOptions(options) ? options : resolveRequestStateOptions(options, { random });
  return {
    now,
    random,
    keyRing: resolved.keyRing,
    mode: resolved.encryptRequestState ? 'aead' : 'hmac',
    audience: resolved.requestStateAudience ?? DEFAULT_REQUEST_STATE_AUDIENCE,
    maxBytes: resolved.maxRequestStateBytes,
    lifetimeMs: resolved.requestStateLifetime * 1000,
    flowLifetimeMs: resolved.maxFlowLifetime * 1000,
    singleUse: resolved.singleUseRequestState ? (resolved.singleUseStore ?? new MemorySingleUseStore(now)) : undefined,
    tokenKeys: new TokenKeys(random),
    minted: new MintedTokens(),
  };
}

function sealState(
  c: CodecSettings,
  payload: unknown,
  binding: StateBinding,
  flowStartedAt?: number,
  handedOverJson?: string,
): string {
  assertBindingShape(binding);
  const iat = Math.floor(c.now());
  const fst = flowStartedAt ?? iat;
  if (!Number.isSafeInteger(fst) || fst > iat) {
    throw new RangeError(
      'flowStartedAt must be an integer epoch-ms time not in the future (use OpenedState.flowStartedAt)',
    );
  }
  const key = c.keyRing.minting;
  const params = digestedParams(binding.params); // throws CanonicalJsonError for params we could never verify
  const claims: ClaimsDraft = {
    jti: c.random(TOKEN_ID_BYTES),
    iat,
    exp: iat + c.lifetimeMs,
    fst,
    aud: c.audience,
    rev: binding.revision,
    m: binding.method,
    t: binding.target,
    pd: params.digest,
    pt: principalTag(key.bindingKey, binding.principal),
    payloadJson: handedOverJson ?? payloadJson(payload),
  };
  const bytes = claimsLength(claims);
  // Refuse before the envelope is built: emit nothing we would refuse on the way back in.
  const length = tokenLength(c.mode, bytes);
  if (length > c.maxBytes) {
    throw new FrameworkError(
      'OMC_STATE_TOO_LARGE',
      `requestState would be ${length} bytes, over maxRequestStateBytes (${c.maxBytes}); keep less in ctx.state or raise the limit.`,
    );
  }
  const token = sealEnvelope(c.mode, key, claims, bytes, c.random, c.tokenKeys);
  const keep = handedOverJson !== undefined && typeof payload === 'object' && payload !== null ? payload : undefined;
  c.minted.remember(token, key, claims, keep, params.text);
  return token;
}

function openToken(c: CodecSettings, token: string): { key: DerivedStateKey; claims: StateClaims } {
  const { key, claimsBytes } = openEnvelope(token, c.mode, c.keyRing, c.tokenKeys);
  return { key, claims: decodeClaims(claimsBytes) };
}

/** Opens `token`: synchronously unless the single-use store answers with a promise. */
function openState(c: CodecSettings, token: unknown, binding: StateBinding): OpenedState | Promise<OpenedState> {
  if (typeof token !== 'string') throw new StateRefusal('not_a_string', typeof token);
  // The size cap comes first: nothing is decoded, hashed or decrypted for an oversize token.
  if (token.length > c.maxBytes) throw new StateRefusal('oversize', `${token.length} > ${c.maxBytes}`);
  const minted = c.minted.take(token);
  const { key, claims } = minted ?? openToken(c, token);
  checkTimes(claims, c.now(), c.flowLifetimeMs);
  if (claims.aud !== c.audience) throw new StateRefusal('audience');
  checkBinding(claims, binding, key.bindingKey, minted?.paramsText);
  const opened: OpenedState = { payload: claims.p, flowStartedAt: claims.fst };
  if (c.singleUse === undefined) return opened;
  const first: unknown = c.singleUse.claim(claims.jti, claims.exp);
  return isThenable(first)
    ? Promise.resolve(first).then((f) => unlessReplayed(f, opened))
    : unlessReplayed(first, opened);
}

function isThenable(x: unknown): x is PromiseLike<unknown> {
  return typeof (x as { then?: unknown } | null | undefined)?.then === 'function';
}

function unlessReplayed(first: unknown, opened: OpenedState): OpenedState {
  if (!first) throw new StateRefusal('replayed');
  return opened;
}
