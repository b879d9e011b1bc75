/**
 * 2026-07-28 request-metadata headers (digest §4.2): the value codec shared by server and client,
 * the `x-mcp-header` declaration rules for tool input schemas, and value comparison. Pure.
 */
import type { JsonObject } from './jsonrpc';

export const MCP_HEADER_KEYWORD = 'x-mcp-header';
export const PARAM_HEADER_PREFIX = 'Mcp-Param-';

export const B64_PREFIX = '=?base64?';
const B64_SUFFIX = '?=';
/** Canonical, padded standard base64 (Node's Buffer.from is lenient, so check the shape first). */
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** RFC 9110 `token` = 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Values that travel as-is: visible ASCII and inner spaces, no leading/trailing whitespace. */
const PLAIN_SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export type HeaderDecode = { ok: true; value: string } | { ok: false; reason: string };

/** Trims OWS (SP/HTAB) and decodes a `=?base64?…?=` value strictly; other values are literal. */
export function decodeHeaderValue(raw: string): HeaderDecode {
  const v = raw.replace(/^[ \t]+|[ \t]+$/g, '');
  if (!(v.startsWith(B64_PREFIX) && v.endsWith(B64_SUFFIX) && v.length >= B64_PREFIX.length + B64_SUFFIX.length)) {
    return { ok: true, value: v };
  }
  const body = v.slice(B64_PREFIX.length, v.length - B64_SUFFIX.length);
  if (!STRICT_BASE64.test(body)) return { ok: false, reason: 'invalid base64 in header value' };
  const bytes = Buffer.from(body, 'base64');
  // Non-canonical trailing bits would decode leniently; re-encoding must give the same text.
  if (bytes.toString('base64') !== body) return { ok: false, reason: 'non-canonical base64 in header value' };
  try {
    return { ok: true, value: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, reason: 'header value is not valid UTF-8' };
  }
}

/** Encodes a value for a header: plain when safe, otherwise (or when it looks like the sentinel) base64. */
export function encodeHeaderValue(value: string): string {
  if (PLAIN_SAFE.test(value) && !(value.startsWith(B64_PREFIX) && value.endsWith(B64_SUFFIX))) return value;
  return `${B64_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${B64_SUFFIX}`;
}

export type HeaderParamType = 'string' | 'integer' | 'boolean';

export interface HeaderParam {
  /** Property names from the root of `arguments` down to the annotated property. */
  readonly path: readonly string[];
  /** The `x-mcp-header` value: the header is `Mcp-Param-<name>`. */
  readonly name: string;
  readonly type: HeaderParamType;
}

export interface McpHeaderProblem {
  property: string;
  reason: string;
}

function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function paramType(schema: JsonObject): HeaderParamType | undefined {
  const t = schema.type;
  const types = Array.isArray(t) ? t.filter((x) => x !== 'null') : [t];
  if (types.length !== 1) return undefined;
  const only = types[0];
  return only === 'string' || only === 'integer' || only === 'boolean' ? only : undefined;
}

/** Keywords whose values are one subschema, a map of them, or a list of them (JSON Schema 2020-12). */
const ONE = [
  'additionalProperties',
  'items',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
];
const MAP = ['patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/**
 * Reads the `x-mcp-header` declarations of a tool inputSchema and every rule they break:
 * non-empty token, case-insensitively unique, string/integer/boolean only, reachable only
 * through a chain of `properties`.
 */
export function readHeaderParams(inputSchema: JsonObject): { params: HeaderParam[]; problems: McpHeaderProblem[] } {
  const params: HeaderParam[] = [];
  const problems: McpHeaderProblem[] = [];
  const seen = new Map<string, string>();
  const visit = (schema: unknown, path: string[], reachable: boolean): void => {
    if (!isRecord(schema)) return;
    if (Object.prototype.hasOwnProperty.call(schema, MCP_HEADER_KEYWORD)) {
      const where = path.join('.') || '(root)';
      const name = schema[MCP_HEADER_KEYWORD];
      const type = paramType(schema);
      if (!reachable || path.length === 0) {
        problems.push({
          property: where,
          reason: `${MCP_HEADER_KEYWORD} is only allowed on properties reached through "properties"`,
        });
      } else if (typeof name !== 'string' || !TOKEN.test(name)) {
        problems.push({
          property: where,
          reason: `${MCP_HEADER_KEYWORD} must be a non-empty HTTP token (letters, digits, !#$%&'*+-.^_\`|~)`,
        });
      } else if (!type) {
        problems.push({
          property: where,
          reason: `${MCP_HEADER_KEYWORD} is only allowed on string, integer or boolean properties`,
        });
      } else if (seen.has(name.toLowerCase())) {
        problems.push({
          property: where,
          reason: `${MCP_HEADER_KEYWORD} "${name}" is already used by ${seen.get(name.toLowerCase())}`,
        });
      } else {
        seen.set(name.toLowerCase(), where);
        params.push({ path, name, type });
      }
    }
    // Paths are built only for keywords present: this walk runs for every tool at start-up.
    if (isRecord(schema.properties)) {
      for (const key in schema.properties) {
        if (Object.prototype.hasOwnProperty.call(schema.properties, key))
          visit(schema.properties[key], [...path, key], reachable);
      }
    }
    for (const k of ONE) if (isRecord(schema[k])) visit(schema[k], [...path, `<${k}>`], false);
    for (const k of MAP)
      if (isRecord(schema[k]))
        for (const [key, sub] of Object.entries(schema[k])) visit(sub, [...path, `<${k}:${key}>`], false);
    for (const k of LIST)
      if (Array.isArray(schema[k]))
        (schema[k] as unknown[]).forEach((sub, i) => visit(sub, [...path, `<${k}[${i}]>`], false));
  };
  visit(inputSchema, [], true);
  return { params, problems };
}

/** Messages for every broken `x-mcp-header` rule (empty when the schema is fine). */
export function mcpHeaderProblems(inputSchema: JsonObject): string[] {
  return readHeaderParams(inputSchema).problems.map((p) => `property "${p.property}": ${p.reason}`);
}

/** The argument value a declared header mirrors (undefined when absent or null). */
export function headerParamValue(args: unknown, param: HeaderParam): unknown {
  let v: unknown = args;
  for (const key of param.path) {
    if (!isRecord(v) || !Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = v[key];
  }
  return v === null ? undefined : v;
}

/** The header text a client sends for an argument value. */
export function headerTextFor(value: string | number | boolean): string {
  return encodeHeaderValue(typeof value === 'string' ? value : String(value));
}

const NUMERIC = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Whether a decoded header value stands for a body value (integers compare numerically). */
export function headerMatchesValue(header: string, value: unknown): boolean {
  if (typeof value === 'string') return header === value;
  if (typeof value === 'boolean') return header === String(value);
  if (typeof value === 'number') return NUMERIC.test(header) && Number(header) === value;
  return false;
}
