/**
 * An ask is one question for the client: the embedded request, the capability it needs and how
 * to read the answer. The same value serves the 2026 replay port and the legacy real-await port.
 */
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import type { ClientCapabilities, InputRequest } from '../protocol/types';

export type AskKind = 'elicitation' | 'urlElicitation' | 'sampling' | 'roots' | 'pause';

/**
 * A decoded answer, or the reason it is unusable (the question is asked again). `kept` is the
 * answer trimmed to what the ask reads (e.g. only the form's fields): what a 2026 flow journals.
 */
export type AskDecoding<T> = { ok: true; value: T; kept: unknown } | { ok: false; reason: string };

export interface Ask<T> {
  readonly kind: AskKind;
  /** Explicit key, or undefined to let the port derive a deterministic one. */
  readonly key?: string;
  /** Legacy real-await: this ask's own reply timeout. */
  readonly timeoutMs?: number;
  /** What goes on the wire: an embedded InputRequest (2026) or a real request (legacy). */
  readonly request: InputRequest;
  /** The `requiredCapabilities` object to report when the client lacks what this ask needs. */
  readonly requires: Record<string, unknown>;
  readonly supportedBy: (caps: ClientCapabilities) => boolean;
  readonly decode: (response: unknown) => AskDecoding<T>;
  /** A question a person answers (elicitation): the value a `deny` fallback resolves with, given why. */
  readonly declined?: (reason: string) => T;
  /** A yes/no confirmation (`ctx.confirm`): what the `argument` fallback may answer. */
  readonly confirmation?: boolean;
  /**
   * `JSON.stringify(request)`, when the builder has it cheaper (a confirmation: only its message is new).
   * A function: a legacy ask waits with its request and never needs the text, so none is kept.
   */
  readonly requestJson?: () => string;
}

/** Short, stable digest of the rendered question: a changed question is asked again. */
type OneShotHash = (alg: string, data: string, enc: 'base64url') => string;
/** Looked up on first use, not at import: reading it loads node:crypto, which start-up need not load. */
let oneShotHash: OneShotHash | null | undefined;
export function askFingerprint(request: InputRequest, text: string = JSON.stringify(request)): string {
  oneShotHash ??= (crypto as { hash?: OneShotHash }).hash ?? null;
  return (
    oneShotHash ? oneShotHash('sha256', text, 'base64url') : createHash('sha256').update(text).digest('base64url')
  ).slice(0, 16);
}

/** The same question, its message saying why the last answer was refused (a re-ask). */
export function withRefusalReason(request: InputRequest, reason: string): InputRequest {
  const params = request.params as { message?: unknown } | undefined;
  if (request.method !== 'elicitation/create' || typeof params?.message !== 'string') return request;
  return {
    ...request,
    params: { ...request.params, message: `${params.message}\n\n(The previous answer was not accepted: ${reason})` },
  };
}

export const Capabilities = {
  formElicitation: (c: ClientCapabilities) => !!c.elicitation && (!!c.elicitation.form || !c.elicitation.url),
  urlElicitation: (c: ClientCapabilities) => !!c.elicitation?.url,
  sampling: (c: ClientCapabilities) => !!c.sampling,
  samplingTools: (c: ClientCapabilities) => !!c.sampling?.tools,
  roots: (c: ClientCapabilities) => !!c.roots,
};
