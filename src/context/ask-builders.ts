/** Builds the Ask for each Context method: request shape, capability and answer decoding. */
import { randomUUID } from 'node:crypto';
import { jsonString } from '../protocol/json-text';
import type { JsonObject } from '../protocol/jsonrpc';
import type { CreateMessageParams, CreateMessageResult, ElicitAction, Root } from '../protocol/types';
import { createDtoValidator, dtoToElicitationSchema } from '../schema';
import { Capabilities, type Ask, type AskDecoding } from './asks';

/** `reason` is set when no person saw the question and a `deny` fallback declined it. */
export type ElicitOutcome<T> =
  { action: 'accept'; content: T } | { action: 'decline'; reason?: string } | { action: 'cancel' };
export interface AskOptions {
  /** Stable key for this question across replays (defaults to call order per kind). */
  key?: string;
  /** Legacy revisions: how long to wait for this reply (defaults to `legacyAskTimeoutMs`). */
  timeoutMs?: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Only the named fields of an answer (what the ask reads); the rest is not kept. */
function pick(source: unknown, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(source)) return out;
  for (const f of fields) if (Object.prototype.hasOwnProperty.call(source, f)) out[f] = source[f];
  return out;
}

function readAction(response: unknown): ElicitAction | undefined {
  if (!isRecord(response)) return undefined;
  const a = response.action;
  return a === 'accept' || a === 'decline' || a === 'cancel' ? a : undefined;
}

export function elicitAsk<T extends object>(
  form: new () => T,
  message: string,
  options: AskOptions = {},
): Ask<ElicitOutcome<T>> {
  const requestedSchema: JsonObject = dtoToElicitationSchema(form);
  const validate = createDtoValidator(form);
  const fields = Object.keys((requestedSchema.properties as Record<string, unknown> | undefined) ?? {});
  return {
    kind: 'elicitation',
    key: options.key,
    timeoutMs: options.timeoutMs,
    request: { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } },
    requires: { elicitation: {} },
    supportedBy: Capabilities.formElicitation,
    requestJson: formRequestJson(message, formJsonTail(requestedSchema)),
    decode: (response): AskDecoding<ElicitOutcome<T>> => {
      const action = readAction(response);
      if (!action) return { ok: false, reason: 'not an ElicitResult' };
      if (action !== 'accept') return { ok: true, value: { action }, kept: { action } };
      const content = (response as Record<string, unknown>).content ?? {};
      const checked = validate(content);
      return checked.ok
        ? { ok: true, value: { action, content: checked.value }, kept: { action, content: pick(content, fields) } }
        : { ok: false, reason: checked.errors.join('; ') };
    },
    declined: (reason) => ({ action: 'decline', reason }),
  };
}

/**
 * What every confirmation shares, made once: its form, what it requires and how its answer reads.
 * A replayed flow asks again on every round, so only the message is new per ask (issue 34).
 */
const CONFIRM_SCHEMA: JsonObject = Object.freeze({
  type: 'object',
  properties: Object.freeze({ confirm: Object.freeze({ type: 'boolean', title: 'Confirm', default: false }) }),
  required: Object.freeze(['confirm']),
}) as unknown as JsonObject;

function decodeConfirmation(response: unknown): AskDecoding<boolean> {
  const action = readAction(response);
  if (!action) return { ok: false, reason: 'not an ElicitResult' };
  if (action !== 'accept') return { ok: true, value: false, kept: { action } };
  const content = (response as Record<string, unknown>).content;
  if (!isRecord(content) || typeof content.confirm !== 'boolean')
    return { ok: false, reason: 'confirm must be a boolean' };
  return { ok: true, value: content.confirm, kept: { action, content: { confirm: content.confirm } } };
}

const declinedConfirmation = (): boolean => false;

/** A form elicitation's request as JSON text around its message: equal to JSON.stringify of the request. */
const FORM_JSON_HEAD = '{"method":"elicitation/create","params":{"mode":"form","message":';
/** `,"requestedSchema":…}}` by schema: a form's schema is one deep-frozen object per class. */
const formJsonTails = new WeakMap<object, string>();

function formJsonTail(schema: JsonObject): string | undefined {
  if (!Object.isFrozen(schema)) return undefined;
  let tail = formJsonTails.get(schema);
  if (tail === undefined) formJsonTails.set(schema, (tail = `,"requestedSchema":${JSON.stringify(schema)}}}`));
  return tail;
}

function formRequestJson(message: unknown, tail: string | undefined): (() => string) | undefined {
  // A message that is not a string (a JavaScript caller) is left to JSON.stringify of the whole request.
  if (typeof message !== 'string' || tail === undefined) return undefined;
  return () => FORM_JSON_HEAD + jsonString(message) + tail;
}

const CONFIRM_JSON_TAIL = formJsonTail(CONFIRM_SCHEMA);

export function confirmAsk(message: string, options: AskOptions = {}): Ask<boolean> {
  return {
    kind: 'elicitation',
    key: options.key,
    timeoutMs: options.timeoutMs,
    request: { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: CONFIRM_SCHEMA } },
    requires: { elicitation: {} },
    supportedBy: Capabilities.formElicitation,
    decode: decodeConfirmation,
    declined: declinedConfirmation,
    confirmation: true,
    requestJson: formRequestJson(message, CONFIRM_JSON_TAIL),
  };
}

export interface UrlElicitOutcome {
  action: ElicitAction;
  /** Legacy 2025-11-25 only: the id to pass to `ctx.completeUrlElicitation`. */
  elicitationId?: string;
}

export function urlElicitAsk(
  url: string,
  message: string,
  withElicitationId: boolean,
  options: AskOptions = {},
): Ask<UrlElicitOutcome> {
  const elicitationId = withElicitationId ? randomUUID() : undefined;
  const params: JsonObject = { mode: 'url', message, url };
  if (elicitationId) params.elicitationId = elicitationId;
  return {
    kind: 'urlElicitation',
    key: options.key,
    timeoutMs: options.timeoutMs,
    request: { method: 'elicitation/create', params },
    requires: { elicitation: { url: {} } },
    supportedBy: Capabilities.urlElicitation,
    decode: (response) => {
      const action = readAction(response);
      if (!action) return { ok: false, reason: 'not an ElicitResult' };
      return { ok: true, value: elicitationId ? { action, elicitationId } : { action }, kept: { action } };
    },
    declined: () => ({ action: 'decline' }),
  };
}

export type SampleRequest = Omit<CreateMessageParams, 'maxTokens'> & { maxTokens?: number };

export function sampleAsk(request: SampleRequest | string, options: AskOptions = {}): Ask<CreateMessageResult> {
  const params: CreateMessageParams =
    typeof request === 'string'
      ? { messages: [{ role: 'user', content: { type: 'text', text: request } }], maxTokens: 1000 }
      : { ...request, maxTokens: request.maxTokens ?? 1000 };
  // Sampling with tools exists only from 2025-11-25 on and needs sampling.tools: the capability check covers both.
  const needsTools = params.tools !== undefined || params.toolChoice !== undefined;
  return {
    kind: 'sampling',
    key: options.key,
    timeoutMs: options.timeoutMs,
    request: { method: 'sampling/createMessage', params: params },
    requires: needsTools ? { sampling: { tools: {} } } : { sampling: {} },
    supportedBy: needsTools ? Capabilities.samplingTools : Capabilities.sampling,
    decode: (response) => {
      if (
        !isRecord(response) ||
        typeof response.model !== 'string' ||
        (!isRecord(response.content) && !Array.isArray(response.content))
      ) {
        return { ok: false, reason: 'not a CreateMessageResult' };
      }
      const kept = pick(response, ['role', 'content', 'model', 'stopReason']);
      return { ok: true, value: kept as CreateMessageResult, kept };
    },
  };
}

export function rootsAsk(options: AskOptions = {}): Ask<Root[]> {
  return {
    kind: 'roots',
    key: options.key,
    timeoutMs: options.timeoutMs,
    request: { method: 'roots/list', params: {} },
    requires: { roots: {} },
    supportedBy: (c) => !!c.roots,
    decode: (response) => {
      if (!isRecord(response) || !Array.isArray(response.roots)) return { ok: false, reason: 'not a ListRootsResult' };
      const roots = response.roots
        .filter((r): r is Root => isRecord(r) && typeof r.uri === 'string')
        .map((r) => (typeof r.name === 'string' ? { uri: r.uri, name: r.name } : { uri: r.uri }));
      return { ok: true, value: roots, kept: { roots } };
    },
  };
}
