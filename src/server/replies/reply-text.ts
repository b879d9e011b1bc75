/**
 * A 2026 reply's JSON text, put together from parts that are text already (protocol/json-text.ts
 * says why): the server's `_meta`, made once; an input_required result around its sealed token and
 * its asks' own texts; a complete result stringified before its `_meta` is attached. Each text
 * equals JSON.stringify of the message it goes with; a shape not recognised here gets no text, and
 * the transport stringifies the message as before.
 */
import { Meta } from '../../protocol/meta';
import { jsonString, withLastKey } from '../../protocol/json-text';
import type { JsonObject } from '../../protocol/jsonrpc';
import type { Implementation } from '../../protocol/types';
import { deepFreeze } from '../../registry/objects';

/** The `_meta` every 2026 result carries, as an object and as its JSON text. */
export interface ServerMeta {
  readonly value: JsonObject;
  readonly text: string;
}

const META_KEY = jsonString('_meta');

/** Made once per server: the object is a deep-frozen copy of the text, so the two cannot drift. */
export function serverMetaOf(info: Implementation): ServerMeta {
  const text = JSON.stringify({ [Meta.serverInfo]: info });
  return { value: deepFreeze(JSON.parse(text) as JsonObject), text };
}

/**
 * `JSON.stringify(result)` of `{ resultType: 'input_required', inputRequests?, requestState, _meta }`
 * as result-envelope builds it from round-end's result. The requestState is the sealer's token,
 * `v1.` or `v1e.` and base64url (state/envelope.ts): its JSON is itself between quotes.
 * `requestsJson`, when given, is `JSON.stringify(inputRequests)`; `plainToken`: the token came from a sealer
 * whose tokens need no escaping (state's sealsPlainTokens).
 */
export function inputRequiredJson(
  result: JsonObject,
  requestsJson: string | undefined,
  meta: ServerMeta,
  plainToken = false,
): string | undefined {
  const keys = Object.keys(result);
  const asks = keys.length === 4;
  if (
    (asks ? keys[1] !== 'inputRequests' : keys.length !== 3) ||
    keys[0] !== 'resultType' ||
    keys[keys.length - 2] !== 'requestState' ||
    keys[keys.length - 1] !== '_meta' ||
    result.resultType !== 'input_required' ||
    typeof result.requestState !== 'string' ||
    result._meta !== meta.value
  ) {
    return undefined;
  }
  let text = '{"resultType":"input_required"';
  if (asks) {
    const requests = requestsJson ?? stringified(result.inputRequests);
    if (requests === undefined) return undefined;
    text += ',"inputRequests":' + requests;
  }
  // Any other sealer's token is checked (one regex pass, ≈ 13 instructions a character) rather than trusted
  // to be base64url: a token with a quote in it must not end the string early.
  const token = plainToken ? '"' + result.requestState + '"' : jsonString(result.requestState);
  return text + ',"requestState":' + token + ',' + META_KEY + ':' + meta.text + '}';
}

/**
 * `JSON.stringify(result)` once `_meta` is added as its last key, from `before`: the result as it was
 * stringified without it. The caller adds `_meta` (it was not there: not even as an own key).
 */
export function withMetaJson(before: string | undefined, meta: ServerMeta): string | undefined {
  return before === undefined ? undefined : withLastKey(before, META_KEY, meta.text);
}

/**
 * JSON.stringify of a result object the server built, or undefined when it cannot be told apart from
 * a part of a bigger text: an object with its own `toJSON` (from a handler's body), or one that
 * throws (a cycle, a BigInt: the transport's stringify throws as it always did).
 */
export function stringified(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || (value as { toJSON?: unknown }).toJSON !== undefined) {
    return undefined;
  }
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

const TEXT_RESULT_HEAD = '{"content":[{"type":"text","text":';

/**
 * `stringified(value)`, made from its parts for the commonest tool result: one text block, `{ content: [{ type:
 * 'text', text }] }`, as toolResult builds it from a returned string. Node 20's JSON.stringify takes ≈ 5 k
 * instructions for it (two objects and an array on its slow path; issue 34). Any other shape is stringified.
 */
export function resultJson(value: unknown): string | undefined {
  return textResultJson(value) ?? stringified(value);
}

/**
 * `JSON.stringify(value)` when it is exactly one text block's result (those keys only, in that order, no
 * `toJSON` anywhere); else undefined. Each value is read once.
 */
export function textResultJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || (value as { toJSON?: unknown }).toJSON !== undefined) {
    return undefined;
  }
  const content = (value as { content?: unknown }).content;
  if (!Array.isArray(content) || content.length !== 1 || (content as { toJSON?: unknown }).toJSON !== undefined) {
    return undefined;
  }
  const block: unknown = content[0];
  if (typeof block !== 'object' || block === null) return undefined;
  const { type, text, toJSON } = block as { type?: unknown; text?: unknown; toJSON?: unknown };
  if (type !== 'text' || typeof text !== 'string' || toJSON !== undefined) return undefined;
  if (!keysAre(value, 'content') || !keysAre(block, 'type', 'text')) return undefined;
  return TEXT_RESULT_HEAD + jsonString(text) + '}]}';
}

/** The object's own enumerable string keys are exactly these, in this order. */
function keysAre(object: object, ...expected: string[]): boolean {
  const keys = Object.keys(object);
  if (keys.length !== expected.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== expected[i]) return false;
  return true;
}
