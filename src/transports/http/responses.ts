/** Small helpers for complete (non-streamed) responses. */
import { failure, type JsonRpcMessage, type JsonRpcResponse, type RequestId } from '../../protocol/jsonrpc';
import type { ResponseSink } from './http-exchange';

export function sendJson(res: ResponseSink, status: number, body: JsonRpcMessage | JsonRpcResponse[], headers: Record<string, string> = {}): void {
  if (res.gone) return;
  res.send(status, { 'Content-Type': 'application/json', ...headers }, JSON.stringify(body));
}

export function sendError(
  res: ResponseSink,
  status: number,
  id: RequestId | null,
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
