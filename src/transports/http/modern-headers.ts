/**
 * The 2026-07-28 header ladder (digest §4.2), run before dispatch: the version header must equal
 * the `_meta` claim (checked before version support), `Mcp-Method` the method, `Mcp-Name` the
 * name or URI, and `Mcp-Param-*` the arguments a tool declared with `x-mcp-header`.
 */
import { ProtocolError } from '../../errors/protocol-error';
import { envelopeClaim } from '../../protocol/classify';
import type { JsonRpcRequest } from '../../protocol/jsonrpc';
import {
  B64_PREFIX,
  decodeHeaderValue,
  headerMatchesValue,
  headerParamValue,
  PARAM_HEADER_PREFIX,
  type HeaderParam,
} from '../../protocol/mcp-header';
import { firstOf, header, type HeaderBag } from './http-exchange';

/** The body field `Mcp-Name` mirrors (SEP-2243; SEP-2663 adds the task methods' `taskId`). */
const NAME_PARAM: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

function mismatch(message: string): ProtocolError {
  return ProtocolError.headerMismatch(`Header mismatch: ${message}`);
}

/** SP or HTAB: optional whitespace a header value may carry around it. */
function isOws(code: number): boolean {
  return code === 32 || code === 9;
}

/**
 * Whether `raw` is `expected` exactly as sent: no surrounding whitespace, not base64-encoded. What
 * clients send nearly always; anything else goes through the full decode.
 */
function literally(raw: string, expected: string): boolean {
  return (
    raw === expected &&
    raw.length > 0 &&
    !isOws(raw.charCodeAt(0)) &&
    !isOws(raw.charCodeAt(raw.length - 1)) &&
    !raw.startsWith(B64_PREFIX)
  );
}

/**
 * Decodes a header that must mirror `expected`; throws -32020 when missing, malformed or different.
 * `name` is lowercase (node:http's header keys).
 */
function expectHeader(headers: HeaderBag, name: string, display: string, matches: (v: string) => boolean): void {
  const raw = header(headers, name);
  if (raw === undefined) throw mismatch(`${display} header is required`);
  const decoded = decodeHeaderValue(raw);
  if (!decoded.ok) throw mismatch(`${display}: ${decoded.reason}`);
  if (!matches(decoded.value)) throw mismatch(`${display} header value does not match the request body`);
}

export function checkModernHeaders(
  req: JsonRpcRequest,
  headers: HeaderBag,
  tools: { toolHeaderParams(tool: string): readonly HeaderParam[] },
): void {
  const claim = envelopeClaim(req.params);
  // Without a claim the dispatcher answers -32602 for the missing envelope.
  if (typeof claim === 'string') {
    const v = firstOf(headers['mcp-protocol-version']);
    if (v === undefined) throw mismatch('MCP-Protocol-Version header is required');
    if (v.trim() !== claim)
      throw mismatch(`MCP-Protocol-Version header "${v.trim()}" does not match _meta protocolVersion`);
  }
  const method = firstOf(headers['mcp-method']);
  if (method === undefined) throw mismatch('Mcp-Method header is required');
  if (method !== req.method && method.replace(/^[ \t]+|[ \t]+$/g, '') !== req.method)
    throw mismatch('Mcp-Method header value does not match the request method');

  const nameKey = NAME_PARAM[req.method];
  const target = nameKey ? req.params?.[nameKey] : undefined;
  if (typeof target === 'string') {
    const raw = firstOf(headers['mcp-name']);
    if (raw === undefined || !literally(raw, target))
      expectHeader(headers, 'mcp-name', 'Mcp-Name', (v) => v === target);
  }

  if (req.method !== 'tools/call' || typeof target !== 'string') return;
  const params = tools.toolHeaderParams(target);
  if (params.length === 0) return;
  const args = req.params?.arguments;
  for (const param of params) {
    const value = headerParamValue(args, param);
    if (value === undefined) continue;
    if (typeof value === 'object') continue; // wrong type: argument validation reports it
    const display = `${PARAM_HEADER_PREFIX}${param.name}`;
    expectHeader(headers, display.toLowerCase(), display, (v) => headerMatchesValue(v, value));
  }
}
