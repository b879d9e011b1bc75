/** Small helpers for complete (non-streamed) responses. */
import {
  failure,
  unknownIdFor,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type RequestId,
} from '../../protocol/jsonrpc';
import { header, type HeaderBag, type ResponseSink } from './http-exchange';

/** How an error names a request whose id is unknown, for the revision the client says it speaks. */
export function noId(headers: HeaderBag): null | undefined {
  return unknownIdFor(header(headers, 'mcp-protocol-version')?.trim());
}

export function sendJson(
  res: ResponseSink,
  status: number,
  body: JsonRpcMessage | JsonRpcResponse[],
  headers: Record<string, string> = {},
): void {
  if (res.gone) return;
  res.send(status, { 'Content-Type': 'application/json', ...headers }, JSON.stringify(body));
}

export function sendError(
  res: ResponseSink,
  status: number,
  id: RequestId | null | undefined,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: unknown,
): void {
  sendJson(res, status, failure(id, code, message, data), headers);
}

export function sendEmpty(res: ResponseSink, status: number, headers: Record<string, string> = {}): void {
  if (!res.gone) res.send(status, headers);
}
