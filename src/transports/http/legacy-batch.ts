/** A JSON-RPC batch POST: 2025-03-26 only (session or sessionless), 1..100 messages, no initialize, never modern. */
import { classifyMessage } from '../../protocol/classify';
import { ErrorCode } from '../../protocol/error-codes';
import { decodeValue, type Decoded } from '../../protocol/jsonrpc';
import { legacyFeatures } from '../../protocol/versions';
import { LegacySession } from '../../server/legacy/legacy-session';
import { MAX_BATCH } from '../message-connection';
import type { EndpointContext } from './endpoint-context';
import { authenticate } from './http-authenticate';
import { header, type HeaderBag, type ResponseSink } from './http-exchange';
import { findSession, legacyBatch, statelessVersion } from './legacy-post';
import { sendEmpty, sendError, sendJson } from './responses';

/** Batches: 2025-03-26 only (session or sessionless), 1..100 messages, no initialize, never modern. */
export async function legacyBatchPost(
  ctx: EndpointContext,
  headers: HeaderBag,
  items: unknown[],
  res: ResponseSink,
  cors: Record<string, string>,
): Promise<void> {
  const decodedItems = items.map((i) => decodeValue(i));
  const claimsModern = decodedItems.some(
    (d) => (d.kind === 'request' || d.kind === 'notification') && classifyMessage(d.message.params).era !== 'legacy',
  );
  if (claimsModern)
    return sendError(
      res,
      400,
      null,
      ErrorCode.InvalidRequest,
      'Invalid Request: 2026-07-28 messages cannot be batched',
      cors,
    );
  if (items.length === 0 || items.length > MAX_BATCH) {
    return sendError(
      res,
      400,
      null,
      ErrorCode.InvalidRequest,
      `Invalid Request: a batch holds 1 to ${MAX_BATCH} messages`,
      cors,
    );
  }
  const ex = await authenticate(ctx, headers, res, null, cors);
  if (!ex) return;
  let session: LegacySession;
  const http =
    header(headers, 'mcp-session-id') === undefined ? undefined : findSession(ctx, headers, res, ex, null);
  if (http) session = http.legacy;
  else if (header(headers, 'mcp-session-id') !== undefined) return;
  else {
    const version = statelessVersion(headers);
    if (!version)
      return sendError(res, 400, null, ErrorCode.InvalidRequest, 'Unsupported MCP-Protocol-Version', cors);
    session = new LegacySession(undefined, ex.principal?.id);
    session.protocolVersion = version;
  }
  if (!legacyFeatures(session.protocolVersion).batching) {
    return sendError(
      res,
      400,
      null,
      ErrorCode.InvalidRequest,
      'Invalid Request: batches are only accepted on protocol revision 2025-03-26',
      cors,
    );
  }
  const replies = await legacyBatch(
    ctx,
    session,
    http,
    decodedItems.map((d) => toItem(d)),
    ex,
  );
  if (replies.length === 0) return sendEmpty(res, 202, cors);
  sendJson(res, 200, replies, cors);
}

function toItem(d: Decoded): { kind: string; message?: never; error?: never } {
  if (d.kind === 'invalid') return { kind: 'invalid', error: d.error as never };
  if (d.kind === 'batch')
    return {
      kind: 'invalid',
      error: { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: 'nested batch' } } as never,
    };
  return { kind: d.kind, message: d.message as never };
}
