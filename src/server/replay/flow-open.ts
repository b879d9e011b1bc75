/**
 * Opens a 2026 round: the sealed requestState (if any) checked against this request's binding and
 * read back into a flow, and this round's answers sorted into what may answer an ask.
 */
import { emptyFlow, hasKey, incomingAnswers, type FlowState, type IncomingAnswers } from '../../context/flow-state';
import { readFlow } from '../../context/sealed-flow';
import type { LowLevelInput } from '../../context/input-required-result';
import { ErrorCode } from '../../protocol/error-codes';
import { ProtocolError } from '../../errors/protocol-error';
import type { AskRun, EngineDeps } from './engine-types';
import { telemetryOf } from '../request/request-telemetry-of';
import { openNow, StateRefusal, type OpenedState, type StateBinding } from '../../state';

/** The one wire error for every refused requestState (the reason goes to the server log only). */
export function stateRefused(): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, 'Invalid or expired requestState', {
    reason: 'invalid_request_state',
  });
}

export interface OpenedRound {
  binding: StateBinding;
  flow: FlowState;
  /** When the flow's first round sealed it: the lifetime counts from there. */
  flowStartedAt?: number;
  /** Whether the request carried requestState (a continuing flow). */
  continues: boolean;
  incoming: IncomingAnswers;
  /** For a low-level handler: the answers to its own requests and its state string. */
  lowLevel?: LowLevelInput;
}

/** A first round (no requestState) opens at once; a continuing one once its state is opened. */
export function openRound<T>(deps: EngineDeps, r: AskRun<T>): OpenedRound | Promise<OpenedRound> {
  const binding: StateBinding = {
    method: r.method,
    target: r.target,
    principal: r.io.principal?.id,
    revision: r.scope.protocolVersion,
    params: r.params,
  };
  const token = r.params.requestState;
  if (token === undefined || token === null) {
    // Its id is minted when the flow store first needs it.
    const flow = emptyFlow('');
    return { binding, flow, continues: false, incoming: incomingAnswers(flow, r.params.inputResponses, false) };
  }
  return openSealed(deps, r, binding, token);
}

/**
 * A continuing round: at once when the token opens without waiting (issue 34: no async function and no
 * await for it), else once it has. A refusal is a rejected promise, never a throw.
 */
function openSealed<T>(
  deps: EngineDeps,
  r: AskRun<T>,
  binding: StateBinding,
  token: unknown,
): OpenedRound | Promise<OpenedRound> {
  let opened: OpenedState | Promise<OpenedState>;
  try {
    opened = openNow(deps.sealer, token, binding);
  } catch (e) {
    return Promise.reject(refused(deps, r, e));
  }
  if (typeof (opened as { then?: unknown }).then === 'function') {
    return (opened as Promise<OpenedState>).then(
      (o) => continued(deps, r, binding, o),
      (e: unknown) => {
        throw refused(deps, r, e);
      },
    );
  }
  try {
    return continued(deps, r, binding, opened as OpenedState);
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The opened token read back into this round's flow; a payload of the wrong shape is refused. */
function continued<T>(deps: EngineDeps, r: AskRun<T>, binding: StateBinding, opened: OpenedState): OpenedRound {
  let flow: FlowState | undefined;
  try {
    flow = readFlow(opened.payload);
    if (!flow) throw new Error('payload shape');
  } catch (e) {
    throw refused(deps, r, e);
  }
  flow.round += 1;
  const lowLevel = lowLevelInput(flow, r.params.inputResponses);
  return {
    binding,
    flow,
    flowStartedAt: opened.flowStartedAt,
    continues: true,
    lowLevel,
    incoming: incomingAnswers(flow, r.params.inputResponses, true),
  };
}

/** Logs why a token was refused (a refusal's reason, never its payload; anything else is `malformed`). */
function refused<T>(deps: EngineDeps, r: AskRun<T>, e: unknown): ProtocolError {
  telemetryOf(r.scope)?.refused(e instanceof StateRefusal ? e.reason : 'malformed');
  deps.logger.warn('requestState refused', {
    reason: (e as { reason?: string }).reason ?? (e as Error).message,
    method: r.method,
    target: r.target,
  });
  return stateRefused();
}

/** This round's answers to the previous InputRequired's requests, and its state string. */
function lowLevelInput(flow: FlowState, responses: unknown): LowLevelInput {
  const inputResponses = Object.create(null) as Record<string, unknown>;
  if (typeof responses === 'object' && responses !== null && !Array.isArray(responses)) {
    for (const [key, value] of Object.entries(responses)) {
      if (hasKey(flow.asked, key)) inputResponses[key] = value;
    }
  }
  return { inputResponses, requestState: flow.handlerState };
}
