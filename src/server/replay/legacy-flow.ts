/**
 * Legacy revisions: the handler really awaits the client on the held connection; nothing is
 * replayed. A low-level handler's InputRequired is answered here — each request sent to the client
 * (a state-only one waits `pauseMs`) — and the handler runs again with the answers, up to
 * `legacyMaxInputRounds` times.
 */
import { LegacyAskPort } from '../../context/legacy-port';
import { InputRequired, type LowLevelInput } from '../../context/input-required-result';
import { StateBag } from '../../context/state-bag';
import { FrameworkError } from '../../errors/framework-error';
import { ProtocolError } from '../../errors/protocol-error';
import type { LegacyVersion } from '../../protocol/versions';
import { InputRequiredSignal } from '../../context/input-required';
import { ENDED, type AskRun, type Ended, type EngineDeps } from './engine-types';
import { telemetryOf } from '../request/request-telemetry-of';

/** The handler's value; synchronously when it returns without awaiting and asks nothing (the common call). */
export function runLegacy<T>(deps: EngineDeps, r: AskRun<T>): T | Promise<T> {
  const port = new LegacyAskPort({
    capabilities: r.scope.clientCapabilities,
    protocolVersion: r.scope.protocolVersion as LegacyVersion,
    channel: r.io,
    timeoutMs: deps.legacyAskTimeoutMs,
    maxReasks: deps.maxReasks,
    pauseMs: deps.pauseMs,
    telemetry: telemetryOf(r.scope)?.legacyAsks(),
  });
  const state = new StateBag();
  let first: T | Ended | Promise<T | Ended>;
  try {
    first = r.run(port, state, r.io, { round: 1, completes: () => true });
  } catch (e) {
    return moreRounds(deps, r, port, state, Promise.reject(e));
  }
  if (first instanceof Promise) return moreRounds(deps, r, port, state, first);
  return first === ENDED ? moreRounds(deps, r, port, state, Promise.reject(InputRequiredSignal.instance)) : first;
}

/**
 * The first attempt's settlement, then more: a legacy flow is one round, unless a low-level
 * handler's InputRequired makes more (answered here, on the held connection).
 */
async function moreRounds<T>(
  deps: EngineDeps,
  r: AskRun<T>,
  port: LegacyAskPort,
  state: StateBag,
  attempt: Promise<T | Ended>,
): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      const value = await attempt;
      if (value === ENDED) throw InputRequiredSignal.instance; // as it was thrown (legacy asks never end an attempt)
      return value;
    } catch (e) {
      if (!(e instanceof InputRequired)) throw e;
      if (round > deps.legacyMaxInputRounds) {
        throw ProtocolError.internal(
          `The handler asked for input more than legacyMaxInputRounds (${deps.legacyMaxInputRounds}) times`,
        );
      }
      port.input = await answerOnLegacy(port, e);
    }
    const next = round + 1;
    attempt = (async () => r.run(port, state, r.io, { round: next, completes: () => true }))();
  }
}

async function answerOnLegacy(port: LegacyAskPort, signal: InputRequired): Promise<LowLevelInput> {
  const entries = Object.entries(signal.inputRequests);
  if (entries.length === 0) await port.pause();
  try {
    // The raw response is what the handler reads, as on 2026: no decoding, no re-asking.
    const answers = await Promise.all(
      entries.map(([, ask]) =>
        port.ask({ ...ask, decode: (value: unknown) => ({ ok: true as const, value, kept: value }) }),
      ),
    );
    return {
      inputResponses: Object.fromEntries(entries.map(([key], i) => [key, answers[i]])),
      requestState: signal.requestState,
    };
  } catch (e) {
    // The client cannot answer (capability, revision, no channel): its request's problem.
    if (e instanceof FrameworkError && e.code === 'OMC_ASK_UNAVAILABLE') throw ProtocolError.invalidParams(e.detail);
    throw e;
  }
}
