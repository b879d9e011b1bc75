/**
 * Who is calling: the OAuth resource's bearer-token check when the server is one, else the app's
 * `authenticate` hook, else nobody in particular. A refusal is answered here (401, or 503 when the
 * authorization server cannot be reached) and the caller gets `undefined`.
 */
import type { Principal } from '../../context/principal';
import { ProtocolError } from '../../errors/protocol-error';
import { ErrorCode } from '../../protocol/error-codes';
import type { RequestId } from '../../protocol/jsonrpc';
import type { ResourceServer } from '../../server/core/resource-server';
import type { ServerEndpoint } from '../../server/server-endpoint';
import type { EndpointContext, Exchange } from './endpoint-context';
import { header, type HeaderBag, type ResponseSink } from './http-exchange';
import { sendError } from './responses';

/**
 * Establishes the principal: the OAuth resource's bearer-token check when the server is one,
 * else the app's `authenticate` hook (a throw is 401). A refusal is answered here. Without either
 * the exchange is known at once: no promise (callers await only what is one).
 */
export function authenticate(
  ctx: EndpointContext,
  headers: HeaderBag,
  res: ResponseSink,
  id: RequestId | null | undefined,
  cors: Record<string, string>,
  clientAddress?: string,
): Exchange | undefined | Promise<Exchange | undefined> {
  const rs = ctx.server.settings.resourceServer;
  if (rs) return bearer(ctx, rs, headers, res, id, cors, clientAddress);
  const hook = ctx.server.settings.authenticate;
  if (!hook) return { responseHeaders: cors, clientAddress };
  return runAuthenticate(hook, headers, res, id, cors, clientAddress);
}

async function runAuthenticate(
  hook: NonNullable<ServerEndpoint['settings']['authenticate']>,
  headers: HeaderBag,
  res: ResponseSink,
  id: RequestId | null | undefined,
  cors: Record<string, string>,
  clientAddress: string | undefined,
): Promise<Exchange | undefined> {
  let principal: Principal | undefined;
  try {
    principal = await hook({ transport: 'http', headers: { ...headers } });
  } catch (e) {
    const message = e instanceof ProtocolError || e instanceof Error ? e.message : 'Unauthorized';
    sendError(res, 401, id, ErrorCode.InvalidRequest, `Unauthorized: ${message}`, {
      ...cors,
      'WWW-Authenticate': 'Bearer',
    });
    return undefined;
  }
  return { principal, responseHeaders: cors, clientAddress };
}

async function bearer(
  ctx: EndpointContext,
  rs: ResourceServer,
  headers: HeaderBag,
  res: ResponseSink,
  id: RequestId | null | undefined,
  cors: Record<string, string>,
  clientAddress: string | undefined,
): Promise<Exchange | undefined> {
  const outcome = await rs.authenticate(header(headers, 'authorization'));
  if (outcome.ok) return { principal: outcome.principal, responseHeaders: cors, clientAddress };
  if (outcome.reason) {
    const log = outcome.status === 503 ? ctx.logger.error : ctx.logger.warn;
    log.call(ctx.logger, `Access token refused: ${outcome.reason}`);
  }
  const challenge: Record<string, string> =
    outcome.status === 503 ? {} : { 'WWW-Authenticate': rs.challenge(outcome) };
  sendError(res, outcome.status, id, ErrorCode.InvalidRequest, `Unauthorized: ${outcome.description}`, {
    ...cors,
    ...challenge,
  });
  return undefined;
}
