/**
 * What a handler produced, wrapped for the wire: a 2026 result carries `resultType`, `_meta` with
 * serverInfo and, when cacheable, the cache hints (and the reply its JSON text when made from parts);
 * a legacy result carries no `resultType`.
 */
import { ProtocolError } from '../../errors/protocol-error';
import type { CacheHints } from '../../metadata/options';
import { jsonString, successJson, withLastKey } from '../../protocol/json-text';
import { success, type JsonObject, type JsonRpcRequest } from '../../protocol/jsonrpc';
import type { ServerCore } from '../core/server-core';
import { CALLER_DEPENDENT } from '../methods/list-visibility';
import type { Outcome } from '../replay/engine-types';
import type { Reply } from '../server-endpoint';
import type { TaskOutcome } from '../tasks/task-service';
import { inputRequiredJson, stringified, textResultJson, withMetaJson, type ServerMeta } from './reply-text';

export type Produced = JsonObject | Outcome<JsonObject> | TaskOutcome;

const RESULT_TYPE_KEY = jsonString('resultType');
const COMPLETE_TEXT = jsonString('complete');

const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'skills/list',
  'resources/directory/read',
]);

/**
 * A 2026 reply: the result carries resultType and the server's `_meta` (`meta`), a cacheable one
 * its cache hints. The reply's `json` is the message's JSON text when it could be made from parts
 * (reply-text.ts); without it the transport stringifies the message.
 */
export function modernReply(core: ServerCore, req: JsonRpcRequest, produced: Produced, meta: ServerMeta): Reply {
  if (isOutcome(produced) && produced.kind === 'input_required') {
    const result = resultWith(produced.result, undefined, meta.value);
    return reply(req, result, inputRequiredJson(result, produced.requestsJson, meta, produced.plainToken === true));
  }
  if (isOutcome(produced) && produced.kind === 'task') {
    return reply(req, resultWith(produced.result, 'task', meta.value), undefined);
  }
  const body = !isOutcome(produced) ? produced : produced.kind === 'complete' ? produced.value : produced.result;
  const hints = cacheHints(core, req);
  if (hints === undefined && !Object.prototype.hasOwnProperty.call(body, '_meta') && body._meta === undefined) {
    // The common case (a tools/call result): stringified before `_meta`, whose text is made once, is added.
    const result = resultWith(body, 'complete', undefined);
    const before = completeJson(produced, body) ?? stringified(result);
    result._meta = meta.value;
    return reply(req, result, withMetaJson(before, meta));
  }
  const merged = body._meta === undefined ? meta.value : { ...(body._meta as JsonObject), ...meta.value };
  // The framework owns resultType: a handler's return value cannot turn a result into another kind.
  const result = resultWith(body, 'complete', merged);
  if (hints) {
    result.ttlMs = hints.ttlMs;
    // A list that guards filtered for this caller is never shareable.
    result.cacheScope = CALLER_DEPENDENT.has(body) ? 'private' : hints.cacheScope;
  }
  return reply(req, result, undefined);
}

/**
 * `JSON.stringify(resultWith(body, 'complete'))` from `body`'s own text — the one round-end made for the flow
 * store, or a text block's made from its parts — when `body` has no own `resultType` (resultWith copies its
 * own keys in their order and adds that key last).
 */
function completeJson(produced: Produced, body: JsonObject): string | undefined {
  const made = isOutcome(produced) && produced.kind === 'complete' ? produced.json : undefined;
  const json = made ?? textResultJson(body);
  if (json === undefined || Object.prototype.hasOwnProperty.call(body, 'resultType')) return undefined;
  return withLastKey(json, RESULT_TYPE_KEY, COMPLETE_TEXT);
}

function reply(req: JsonRpcRequest, result: JsonObject, json: string | undefined): Reply {
  const message = success(req.id, result);
  return { kind: 'reply', message, json: json === undefined ? undefined : successJson(req.id, json) };
}

/**
 * Cache hints for a complete result of server/discover, a list or resources/read (the resource's
 * own `cache`, else `readCache`). Added to every complete result, a retry that completes after
 * answers included; an input_required result never carries them (modernResult returns first).
 */
function cacheHints(core: ServerCore, req: JsonRpcRequest): CacheHints | undefined {
  if (CACHEABLE.has(req.method)) return core.options.listCache;
  // A skill entry is cached like a read of its SKILL.md (SEP-2640: GetSkillResult is a CacheableResult).
  if (req.method === 'skills/get') return core.options.readCache;
  if (req.method !== 'resources/read') return undefined;
  const uri = req.params?.uri as string;
  const def = core.registry.resource(uri) ?? core.registry.matchTemplate(uri)?.def;
  const hints = def?.cache ?? core.options.readCache;
  // A guarded resource is read only by the callers its guards let in: never shareable.
  if (def && hints.cacheScope === 'public' && (core.pipelines.of(def)?.guards.length ?? 0) > 0) {
    return { ...hints, cacheScope: 'private' };
  }
  return hints;
}

/** What a legacy client gets from a shared handler: the value, without the 2026 `resultType`; never a task. */
export function legacyResult(produced: Produced): JsonObject {
  if (isOutcome(produced) && produced.kind === 'task') throw ProtocolError.internal('A task on legacy');
  return withoutResultType(
    !isOutcome(produced) ? produced : produced.kind === 'complete' ? produced.value : produced.result,
  );
}

function withoutResultType(result: JsonObject): JsonObject {
  if (!('resultType' in result)) return result;
  const { resultType: _dropped, ...rest } = result;
  return rest;
}

/**
 * `{ ...body, resultType, _meta }`, copied key by key: V8 builds that spread-then-add literal slowly
 * and JSON.stringify of it was slower still (≈ 3 µs per tools/call reply, bench/profile-notes.md).
 */
function resultWith(body: JsonObject, resultType: string | undefined, meta: JsonObject | undefined): JsonObject {
  const result: JsonObject = {};
  for (const key in body) {
    if (!Object.prototype.hasOwnProperty.call(body, key)) continue;
    // A data property named `__proto__` stays one (as the spread made it), never a prototype.
    if (key !== '__proto__') result[key] = body[key];
    else Object.defineProperty(result, key, { value: body[key], enumerable: true, writable: true, configurable: true });
  }
  if (resultType !== undefined) result.resultType = resultType;
  if (meta !== undefined) result._meta = meta;
  return result;
}

function isOutcome(v: Produced): v is Outcome<JsonObject> | TaskOutcome {
  return (
    (v.kind === 'complete' && 'value' in v) ||
    ((v.kind === 'input_required' || v.kind === 'task') && 'result' in v)
  );
}
