/**
 * Ends a 2026 attempt that still needs input: `input_required` with the attempt's requests and
 * the flow sealed again for the next round.
 */
import { askFingerprint } from '../context/asks';
import { dict, type FlowState } from '../context/flow-state';
import { toSealedFlow } from '../context/sealed-flow';
import type { InputRequired } from '../context/input-required-result';
import type { PendingAsk } from '../context/input-required';
import type { StateBag } from '../context/state-bag';
import { ProtocolError } from '../errors/protocol-error';
import type { JsonObject } from '../protocol/jsonrpc';
import type { InputRequest } from '../protocol/types';
import type { OpenedRound } from './flow-open';
import type { RequestScope } from './request-scope';
import type { StateSealer } from './ask-engine';

/** The asks of this attempt that no answer met (pauses carry no request: the retry answers them). */
export function sealPending(
  sealer: StateSealer,
  round: OpenedRound,
  pending: readonly PendingAsk[],
  state: StateBag,
): JsonObject {
  const requests: Record<string, InputRequest> = {};
  for (const p of pending) {
    if (!p.request) continue;
    requests[p.key] = p.request;
    round.flow.asked[p.key] = p.fingerprint;
  }
  return seal(sealer, round, requests, state);
}

/** The low-level path's requests, each checked against what the client declared (before anything is held). */
export function lowLevelRequests(
  signal: InputRequired,
  capabilities: RequestScope['clientCapabilities'],
): Record<string, InputRequest> {
  const requests: Record<string, InputRequest> = {};
  for (const [key, ask] of Object.entries(signal.inputRequests)) {
    if (!ask.supportedBy(capabilities))
      throw ProtocolError.missingCapability(ask.requires, Object.keys(ask.requires).join(', '));
    requests[key] = ask.request;
  }
  return requests;
}

/** The low-level path: the handler's own requests and state string, sealed in our envelope. */
export function sealLowLevel(
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
  return seal(sealer, round, requests, state);
}

function seal(
  sealer: StateSealer,
  round: OpenedRound,
  requests: Record<string, InputRequest>,
  state: StateBag,
): JsonObject {
  round.flow.state = state.toJSON();
  const result: JsonObject = { resultType: 'input_required' };
  if (Object.keys(requests).length) result.inputRequests = requests;
  result.requestState = sealer.seal(toSealedFlow(round.flow), round.binding, round.flowStartedAt);
  return result;
}
