/** JSON-RPC 2.0 message types and a hostile-input-safe decoder. No I/O. */
import { ErrorCode } from './error-codes';

export type RequestId = string | number;
export type JsonObject = { [key: string]: unknown };

export type JsonRpcRequest = {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
};
export type JsonRpcNotification = {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
};
export type JsonRpcErrorObject = {
  code: number;
  message: string;
  data?: unknown;
};
export type JsonRpcSuccess = {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
};
export type JsonRpcFailure = {
  jsonrpc: '2.0';
  /** Absent or null when the request's id is unknown: see `unknownIdFor`. */
  id?: RequestId | null;
  error: JsonRpcErrorObject;
};
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Nesting deeper than this is refused before any handler sees it. */
export const MAX_JSON_DEPTH = 64;

export type Decoded =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'batch'; items: unknown[] }
  | { kind: 'invalid'; error: JsonRpcFailure };

/** `id` undefined: the error names no request (the key is left out). */
export function failure(
  id: RequestId | null | undefined,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcFailure {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

/**
 * How an error for a request whose id is unknown (a parse error, a refused Host …) names it, by
 * the revision the peer speaks: the 2025-11-25 and 2026-07-28 schemas make `id` optional and a
 * RequestId is never null, so it is left out; 2025-06-18 and 2025-03-26 require an `id`, so it
 * is JSON-RPC 2.0's null. `undefined` (unknown revision, e.g. HTTP without MCP-Protocol-Version)
 * is 2025-03-26, as the HTTP transport spec says to assume.
 */
export function unknownIdFor(revision: string | undefined): null | undefined {
  return revision === undefined || revision === '2025-03-26' || revision === '2025-06-18' ? null : undefined;
}

/** The same error, its unknown id spelled for `revision` (see `unknownIdFor`). */
export function withUnknownId(f: JsonRpcFailure, revision: string | undefined): JsonRpcFailure {
  if (f.id !== null && f.id !== undefined) return f;
  return failure(unknownIdFor(revision), f.error.code, f.error.message, f.error.data);
}

export function success(id: RequestId, result: JsonObject): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

/**
 * Depth of the deepest array/object in a JSON text, scanning bytes (strings skipped) so a
 * nesting bomb is refused before JSON.parse builds it. Stops early once past `limit`.
 */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  // Cheap bound first (native indexOf): fewer openers than the limit cannot nest deeper than it.
  if (countOpeners(text, limit + 1) <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Number of `{` and `[` in text, counting no further than `stopAt`. */
function countOpeners(text: string, stopAt: number): number {
  let n = 0;
  for (let i = text.indexOf('{'); i !== -1 && n < stopAt; i = text.indexOf('{', i + 1)) n++;
  for (let i = text.indexOf('['); i !== -1 && n < stopAt; i = text.indexOf('[', i + 1)) n++;
  return n;
}

/** Parse one frame of text. Never throws. */
export function decodeText(text: string): Decoded {
  if (jsonDepthExceeds(text)) {
    return {
      kind: 'invalid',
      error: failure(null, ErrorCode.InvalidRequest, `JSON nesting deeper than ${MAX_JSON_DEPTH}`),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', error: failure(null, ErrorCode.ParseError, 'Parse error') };
  }
  return decodeValue(value);
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function validId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** Whether `value` has `key` as an own property (a module function: no closure per message). */
function own(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** Classify an already-parsed value. Keys are matched exactly (case-sensitive, own properties). */
export function decodeValue(value: unknown): Decoded {
  if (Array.isArray(value)) return { kind: 'batch', items: value };
  if (!isObject(value)) return invalid(null, 'Invalid Request: expected a JSON-RPC object');
  const id = own(value, 'id') ? value.id : undefined;
  const echoId = validId(id) ? id : null;
  if (value.jsonrpc !== '2.0') return invalid(echoId, 'Invalid Request: jsonrpc must be "2.0"');
  if (own(value, 'method')) {
    if (typeof value.method !== 'string' || value.method.length === 0)
      return invalid(echoId, 'Invalid Request: method must be a string');
    if (own(value, 'params') && value.params !== undefined && !isObject(value.params)) {
      return invalid(echoId, 'Invalid Request: params must be an object');
    }
    const params = own(value, 'params') ? (value.params as JsonObject | undefined) : undefined;
    if (!own(value, 'id')) return { kind: 'notification', message: { jsonrpc: '2.0', method: value.method, params } };
    if (!validId(id)) return invalid(null, 'Invalid Request: id must be a string or number');
    return { kind: 'request', message: { jsonrpc: '2.0', id, method: value.method, params } };
  }
  if (own(value, 'result') || own(value, 'error')) {
    if (own(value, 'result') && !isObject(value.result)) return invalid(echoId, 'Invalid Response: result must be an object');
    if (own(value, 'error')) {
      const e = value.error;
      if (!isObject(e) || typeof e.code !== 'number' || typeof e.message !== 'string') {
        return invalid(echoId, 'Invalid Response: malformed error');
      }
    }
    if (id !== null && !validId(id)) return invalid(null, 'Invalid Response: bad id');
    return { kind: 'response', message: value as JsonRpcResponse };
  }
  return invalid(echoId, 'Invalid Request: missing method');
}

function invalid(id: RequestId | null, message: string): Decoded {
  return { kind: 'invalid', error: failure(id, ErrorCode.InvalidRequest, message) };
}
