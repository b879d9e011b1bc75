/**
 * The 2026-07-28 header ladder (digest §4.2), run before dispatch: the version header must equal
 * the `_meta` claim (checked before version support), `Mcp-Method` the method, `Mcp-Name` the
 * name or URI, and `Mcp-Param-*` the arguments a tool declared with `x-mcp-header`.
 */
import { ProtocolError } from '../../errors/protocol-error';
import { envelopeClaim } from '../../protocol/classify';
import type { JsonRpcRequest } from '../../protocol/jsonrpc';
import {
  decodeHeaderValue,
  headerMatchesValue,
  headerParamValue,
  PARAM_HEADER_PREFIX,
  type HeaderParam,
} from '../../protocol/mcp-header';
import { header, type HeaderBag } from './http-exchange';

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

/** Decodes a header that must mirror `expected`; throws -32020 when missing, malformed or different. */
function expectHeader(headers: HeaderBag, name: string, display: string, matches: (v: string) => boolean): void {
  const raw = header(headers, name.toLowerCase());
  if (raw === undefined) throw mismatch(`${display} header is required`);
  const decoded = decodeHeaderValue(raw);
  if (!decoded.ok) throw mismatch(`${display}: ${decoded.reason}`);
  if (!matches(decoded.value)) throw mismatch(`${display} header value does not match the request body`);
}

export function checkModernHeaders(
  req: JsonRpcRequest,
  headers: HeaderBag,
  toolHeaderParams: (tool: string) => readonly HeaderParam[],
): void {
  const claim = envelopeClaim(req.params);
  // Without a claim the dispatcher answers -32602 for the missing envelope.
  if (typeof claim === 'string') {
    const v = header(headers, 'mcp-protocol-version');
    if (v === undefined) throw mismatch('MCP-Protocol-Version header is required');
    if (v.trim() !== claim)
      throw mismatch(`MCP-Protocol-Version header "${v.trim()}" does not match _meta protocolVersion`);
  }
  const method = header(headers, 'mcp-method');
  if (method === undefined) throw mismatch('Mcp-Method header is required');
  if (method.replace(/^[ \t]+|[ \t]+$/g, '') !== req.method)
    throw mismatch('Mcp-Method header value does not match the request method');

  const nameKey = NAME_PARAM[req.method];
  const target = nameKey ? req.params?.[nameKey] : undefined;
  if (typeof target === 'string') expectHeader(headers, 'mcp-name', 'Mcp-Name', (v) => v === target);

  if (req.method !== 'tools/call' || typeof target !== 'string') return;
  const args = req.params?.arguments;
  for (const param of toolHeaderParams(target)) {
    const value = headerParamValue(args, param);
    if (value === undefined) continue;
    if (typeof value === 'object') continue; // wrong type: argument validation reports it
    expectHeader(headers, `${PARAM_HEADER_PREFIX}${param.name}`, `${PARAM_HEADER_PREFIX}${param.name}`, (v) =>
      headerMatchesValue(v, value),
    );
  }
}
