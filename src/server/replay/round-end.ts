/**
 * Ends a 2026 round once its attempt settled: the one place that decides. A protocol error goes
 * on; an attempt with no unanswered ask completes (recorded in the flow store when the flow is
 * held); otherwise `input_required` with the attempt's requests and the flow sealed again for the
 * next round (the low-level path seals the handler's own requests and state string).
 */
import { askFingerprint } from '../../context/asks';
import { dict, type FlowState } from '../../context/flow-state';
import { sealedFlowText, toSealedFlow } from '../../context/sealed-flow';
import { InputRequired } from '../../context/input-required-result';
import type { PendingAsk } from '../../context/input-required';
import type { StateBag } from '../../context/state-bag';
import { ProtocolError } from '../../errors/protocol-error';
import { sealsPlainTokens } from '../../state';
import { jsonString } from '../../protocol/json-text';
import type { JsonObject } from '../../protocol/jsonrpc';
import type { InputRequest } from '../../protocol/types';
import { askKindOf } from '../../telemetry/conventions';
import type { RequestTelemetry } from '../../telemetry/request-telemetry';
import type { RequestScope } from '../request/request-scope';
import { resultJson } from '../replies/reply-text';
import { telemetryOf } from '../request/request-telemetry-of';
import {
  settledOf,
  type AskRun,
  type Attempt,
  type EngineDeps,
  type Outcome,
  type StateSealer,
} from './engine-types';
import type { FlowHold } from './flow-hold';
import type { OpenedRound } from './flow-open';
import { replayProblems, reportReplayProblems } from './replay-lint';

/** Complete, or seal the next round; the flow is released (when still held) before the outcome is given. */
export async function endRound<T>(
  deps: EngineDeps,
  r: AskRun<T>,
  round: OpenedRound,
  hold: FlowHold,
  attempt: Attempt<T>,
): Promise<Outcome<T>> {
  try {
    let settled = attempt.settled;
    if (!settled) {
      // Awaited here, not through a helper: one promise hop. An ended attempt comes back as the value ENDED.
      try {
        settled = settledOf(await attempt.pending!);
      } catch (error) {
        settled = { ok: false, error };
      }
    }
    const { port, state, lint } = attempt;
    const telemetry = telemetryOf(r.scope);
    if (!settled.ok && settled.error instanceof ProtocolError) throw settled.error;
    if (!settled.ok && settled.error instanceof InputRequired) {
      const requests = lowLevelRequests(settled.error, r.scope.clientCapabilities);
      const registering = hold.register();
      if (registering instanceof Promise) await registering;
      if (telemetry) traceNextRound(telemetry, round, hold, Object.entries(requests));
      const result = sealLowLevel(deps.sealer, round, requests, settled.error.requestState, state);
      telemetry?.sealed((result.requestState as string).length);
      return { kind: 'input_required', result, requestsJson: undefined, plainToken: sealsPlainTokens(deps.sealer) };
    }
    if (port.pending.length === 0) {
      if (!settled.ok) throw settled.error;
      // Stringified once when recorded: the store's record and the reply are this same text (issue 34).
      const json = hold.held ? resultJson(settled.value) : undefined;
      // The code ran: its result is the answer even when the store cannot record it (complete logs why).
      const completing = hold.held ? hold.complete(settled.value, json) : undefined;
      if (completing) await completing;
      if (round.continues) telemetry?.flowCompleted(round.flow.round);
      return json === undefined
        ? { kind: 'complete', value: settled.value }
        : { kind: 'complete', value: settled.value, json };
    }
    if (lint) {
      const replay = await lint.replay(r, deps.maxReasks);
      reportReplayProblems(
        deps.replayLint,
        deps.logger,
        `${r.method} ${r.target}`,
        replayProblems(port.trace ?? [], replay, lint.effects),
      );
    }
    // A new flow is registered once it needs a next round (so a full store refuses it now); the memory
    // store answers at once, and only a promise is awaited (no hop).
    const registering = hold.register();
    if (registering instanceof Promise) await registering;
    port.markPausesAnswered();
    if (telemetry) traceNextRound(telemetry, round, hold, port.pending.map((p) => [p.key, p.request]));
    const requests = pendingRequests(round, port.pending);
    const result = seal(deps.sealer, round, requests, state, port.pending.some(asksClient));
    telemetry?.sealed((result.requestState as string).length);
    return {
      kind: 'input_required',
      result,
      requestsJson: requestsJson(requests, port.pending),
      plainToken: sealsPlainTokens(deps.sealer),
    };
  } finally {
    // Held only while the next round is sealed (or this one's record is written): let go before answering.
    const releasing = hold.held ? hold.release() : undefined;
    if (releasing) await releasing;
  }
}

/** A round that needs another: round 1 starts the flow's trace; every ask sent is an event. */
function traceNextRound(
  telemetry: RequestTelemetry,
  round: OpenedRound,
  hold: FlowHold,
  asked: readonly (readonly [string, InputRequest | undefined])[],
): void {
  if (!round.continues) round.flow.firstSpan = telemetry.startFlow(hold.flowId);
  for (const [key, request] of asked) telemetry.ask(askKindOf(request), key, 'asked');
}

/** The asks of this attempt that no answer met (pauses carry no request: the retry answers them). */
/** Whether an ask sends the client a request (a module function: no closure per round). */
function asksClient(p: PendingAsk): boolean {
  return !!p.request;
}

function pendingRequests(round: OpenedRound, pending: readonly PendingAsk[]): Record<string, InputRequest> {
  const requests = dict<InputRequest>(); // an ask keyed `__proto__` is a key, not the prototype
  for (const p of pending) {
    if (!p.request) continue;
    requests[p.key] = p.request;
    round.flow.asked[p.key] = p.fingerprint;
  }
  return requests;
}

/**
 * `JSON.stringify(requests)` from each ask's JSON text (made once for its fingerprint), in the object's
 * own key order; undefined when an ask has none (a re-ask, a trimmed sampling request): then the
 * reply stringifies the requests itself. `requests` has the asks' keys in the asks' order (pendingRequests),
 * which is its own order unless a key is integer-like (those come first, in numeric order): only then is the
 * object itself walked (a for-in over a prototype-less map costs ≈ 1 k instructions; issue 34).
 */
function requestsJson(requests: Record<string, InputRequest>, pending: readonly PendingAsk[]): string | undefined {
  let text = '';
  for (const p of pending) {
    if (!p.request) continue;
    const first = p.key.charCodeAt(0);
    if (first >= 0x30 && first <= 0x39) return requestsJsonInKeyOrder(requests, pending);
    if (p.json === undefined || requests[p.key] !== p.request) return undefined;
    text += (text === '' ? '{' : ',') + jsonString(p.key) + ':' + p.json;
  }
  return text === '' ? '{}' : text + '}';
}

/** requestsJson, walking the object's own keys (a key starting with a digit may be integer-like). */
function requestsJsonInKeyOrder(
  requests: Record<string, InputRequest>,
  pending: readonly PendingAsk[],
): string | undefined {
  let text = '';
  for (const key in requests) {
    if (!Object.prototype.hasOwnProperty.call(requests, key)) return undefined;
    let json: string | undefined;
    for (const p of pending) {
      if (p.key === key) {
        json = p.request === requests[key] ? p.json : undefined;
        break;
      }
    }
    if (json === undefined) return undefined;
    text += (text === '' ? '{' : ',') + jsonString(key) + ':' + json;
  }
  return text === '' ? '{}' : text + '}';
}

/** The low-level path's requests, each checked against what the client declared (before anything is held). */
function lowLevelRequests(
  signal: InputRequired,
  capabilities: RequestScope['clientCapabilities'],
): Record<string, InputRequest> {
  const requests = dict<InputRequest>(); // an ask keyed `__proto__` is a key, not the prototype
  for (const [key, ask] of Object.entries(signal.inputRequests)) {
    if (!ask.supportedBy(capabilities))
      throw ProtocolError.missingCapability(ask.requires, Object.keys(ask.requires).join(', '));
    requests[key] = ask.request;
  }
  return requests;
}

/** The low-level path: the handler's own requests and state string, sealed in our envelope. */
function sealLowLevel(
  sealer: StateSealer,
  round: OpenedRound,
  requests: Record<string, InputRequest>,
  handlerState: string | undefined,
  state: StateBag,
): JsonObject {
  const flow: FlowState = round.flow;
  flow.asked = dict();
  for (const [key, request] of Object.entries(requests)) flow.asked[key] = askFingerprint(request);
  if (handlerState === undefined) delete flow.handlerState;
  else flow.handlerState = handlerState;
  return seal(sealer, round, requests, state, Object.keys(requests).length > 0);
}

/** `asks`: `requests` holds at least one request (else the result carries none). */
function seal(
  sealer: StateSealer,
  round: OpenedRound,
  requests: Record<string, InputRequest>,
  state: StateBag,
  asks: boolean,
): JsonObject {
  round.flow.state = state.toJSON();
  const result: JsonObject = { resultType: 'input_required' };
  if (asks) result.inputRequests = requests;
  const sealed = toSealedFlow(round.flow);
  result.requestState = sealer.seal(sealed, round.binding, round.flowStartedAt, sealedFlowText(sealed));
  return result;
}
