/**
 * One call routed to a mounted server, with its asks bridged across revisions. Both paths end a
 * round the same way — the low-level `InputRequired` — so our engine shapes it for the caller's
 * revision: 2026 gets `input_required` (the upstream's own state sealed inside ours), a legacy
 * session gets real asks and the handler runs again with the answers.
 *
 * - 2026 upstream: stateless. Each of our rounds is one upstream round; its `requestState`
 *   travels as ours (`ctx.requestState`), its `inputRequests` are relayed as they are.
 * - legacy upstream: its call really awaits each answer, so it is parked here (parked-calls.ts)
 *   under a handle that travels as our requestState; the next round delivers the answers.
 */
import type { ContextClient } from '../client/context-client';
import type { InputHandlers } from '../client/input-handlers';
import type { Context } from '../context/context';
import { InputRequired } from '../context/input-required-result';
import type { Ask } from '../context/asks';
import { FrameworkError } from '../errors/framework-error';
import type { JsonObject } from '../protocol/jsonrpc';
import { bridgeError } from './bridge-errors';
import type { ParkedCall, ParkedCalls } from './parked-calls';
import { relayAsk } from './relay-ask';
import type { Upstream } from './upstream';

export type RelayedMethod = 'tools/call' | 'prompts/get' | 'resources/read';

export interface RelayRoute {
  namespace: string;
  upstream: Upstream;
  parking: ParkedCalls;
}

export async function relay(route: RelayRoute, method: RelayedMethod, params: JsonObject, ctx: Context) {
  const client = route.upstream.live();
  try {
    return client.era === 'modern'
      ? await relayModern(route, client, method, params, ctx)
      : await relayParked(route, client, method, params, ctx);
  } catch (e) {
    throw upstreamFailure(route, client, e);
  }
}

async function relayModern(
  route: RelayRoute,
  client: ContextClient,
  method: RelayedMethod,
  params: JsonObject,
  ctx: Context,
) {
  const round: JsonObject = { ...params };
  if (ctx.inputResponses) round.inputResponses = ctx.inputResponses as JsonObject;
  if (ctx.requestState !== undefined) round.requestState = ctx.requestState;
  // Per request on 2026: the upstream sees what our caller can answer, so it degrades as it would for them.
  const capabilities = ctx.client.capabilities;
  const result = await client.round(method, round, { signal: ctx.signal, capabilities, ...notificationsTo(ctx) });
  if (result.resultType !== 'input_required') return complete(route, method, result);
  const requests = (result.inputRequests ?? {}) as Record<string, { method: string; params?: JsonObject }>;
  throw new InputRequired({
    inputRequests: relayed(Object.entries(requests).map(([key, r]) => [key, r.method, r.params])),
    requestState: typeof result.requestState === 'string' ? result.requestState : undefined,
  });
}

async function relayParked(
  route: RelayRoute,
  client: ContextClient,
  method: RelayedMethod,
  params: JsonObject,
  ctx: Context,
) {
  const principal = ctx.principal?.id ?? '';
  const handle = ctx.requestState;
  let call: ParkedCall;
  if (handle === undefined) {
    call = route.parking.open(principal);
    start(route, client, call, method, params);
  } else {
    call = route.parking.find(handle, principal);
    call.deliver(ctx.inputResponses);
  }
  call.notify = notificationsTo(ctx);
  let event;
  try {
    event = await call.next(ctx.signal);
  } catch (abandoned) {
    // The caller went away mid-round: nobody will answer, so the upstream call is cancelled.
    route.parking.abandon(call, abandoned);
    throw abandoned;
  }
  if (event.kind === 'asks') {
    route.parking.park(call);
    throw new InputRequired({
      inputRequests: relayed(event.asks.map((a) => [a.key, a.method, a.params])),
      requestState: call.handle,
    });
  }
  route.parking.finished(call);
  if (event.kind === 'failed') throw event.error;
  return complete(route, method, event.result);
}

/** Starts the upstream call; its asks wait on the parked call, its progress and logs go to the current round. */
function start(route: RelayRoute, client: ContextClient, call: ParkedCall, method: RelayedMethod, params: JsonObject) {
  const ask = (m: string) => (p: JsonObject) => call.ask(m, p) as never;
  const input: InputHandlers = {
    elicitation: ask('elicitation/create'),
    urlElicitation: ask('elicitation/create'),
    sampling: ask('sampling/createMessage'),
    roots: () => call.ask('roots/list', {}) as never,
  };
  client
    .round(method, params, {
      signal: call.upstream.signal,
      // It waits for our caller's answers too: its deadline is the parking one.
      timeoutMs: 0,
      input,
      onProgress: (u) => call.notify?.onProgress?.(u),
      onLog: (m) => call.notify?.onLog?.(m),
    })
    .then(
      (result) => call.settle({ kind: 'done', result }),
      (error: unknown) => call.settle({ kind: 'failed', error: upstreamFailure(route, client, error) }),
    );
}

function relayed(asks: readonly (readonly [string, string, JsonObject | undefined])[]): Record<string, Ask<unknown>> {
  return Object.fromEntries(asks.map(([key, method, params]) => [key, relayAsk(method, params)]));
}

/** Progress and log messages of the upstream call, forwarded to our caller's request. */
function notificationsTo(ctx: Context): Pick<NonNullable<ParkedCall['notify']>, 'onProgress' | 'onLog'> {
  return {
    onProgress: (u) => void ctx.progress(u.progress, u.total, u.message),
    onLog: (m) => void ctx.log(m.level, m.data, m.logger),
  };
}

const RESULT_LIST: Record<RelayedMethod, string> = {
  'tools/call': 'content',
  'prompts/get': 'messages',
  'resources/read': 'contents',
};

/** The upstream's result as our handler's value (our engine sets the result type); a malformed one is refused. */
function complete(route: RelayRoute, method: RelayedMethod, result: unknown): JsonObject {
  const list = RESULT_LIST[method];
  if (typeof result !== 'object' || result === null || !Array.isArray((result as JsonObject)[list])) {
    throw bridgeError(
      'upstream_malformed',
      `The mounted server "${route.namespace}" answered ${method} with a malformed result (no ${list} array).`,
      { upstream: route.namespace },
    );
  }
  const { resultType: _t, ...rest } = result as JsonObject;
  return rest;
}

/** A broken connection is reported (and the upstream restarted); the upstream's own errors pass through. */
function upstreamFailure(route: RelayRoute, client: ContextClient, error: unknown): unknown {
  if (error instanceof FrameworkError && error.code === 'OMC_CLIENT_BAD_REPLY') {
    return bridgeError('upstream_malformed', `The mounted server "${route.namespace}" replied malformed: ${error.message}`, {
      upstream: route.namespace,
    });
  }
  if (error instanceof FrameworkError && (error.code === 'OMC_TRANSPORT' || error.code === 'OMC_CLIENT_CLOSED')) {
    route.upstream.failed(client, error);
    return bridgeError(
      'upstream_unavailable',
      `The mounted server "${route.namespace}" failed during the call: ${error.message}`,
      { upstream: route.namespace },
    );
  }
  return error;
}
