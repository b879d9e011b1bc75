/**
 * Runs a handler that may ask. On 2026-07-28 it replays: open the sealed state, fold this round's
 * answers into the journal, run the handler from the top, and either complete or answer
 * `input_required` with every unanswered ask of the attempt and a fresh sealed state.
 * On legacy revisions the same handler really awaits the client; nothing is replayed.
 */
import { LegacyAskPort } from '../context/legacy-port';
import { ReplayAskPort } from '../context/replay-port';
import { InputRequired, type LowLevelInput } from '../context/input-required-result';
import { askFingerprint } from '../context/asks';
import { FrameworkError } from '../errors/framework-error';
import { watchEffects } from '../context/effect-watch';
import { DryReplay } from './dry-replay';
import { FlowHold } from './flow-hold';
import { replayProblems, reportReplayProblems, type ReplayLintMode } from './replay-lint';
import { StateBag } from '../context/state-bag';
import { hasKey, emptyFlow, incomingAnswers, readFlow, type FlowState } from '../context/flow-state';
import type { AskPort } from '../context/ask-port';
import { ErrorCode } from '../protocol/error-codes';
import { ProtocolError } from '../errors/protocol-error';
import type { JsonObject } from '../protocol/jsonrpc';
import type { InputRequest } from '../protocol/types';
import type { LegacyVersion } from '../protocol/versions';
import type { RequestIO } from './request-io';
import type { RequestScope } from './request-scope';
import type { ServerLogger } from './server-logger';
import type { FlowStore, RequestStateCodec, StateBinding } from '../state';

/** The slice of the requestState codec the engine uses. */
export type StateSealer = Pick<RequestStateCodec, 'seal' | 'open'>;

/** The one wire error for every refused requestState (the reason goes to the server log only). */
export function stateRefused(): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state' });
}

export type Outcome<T> = { kind: 'complete'; value: T } | { kind: 'input_required'; result: JsonObject };

export interface EngineDeps {
  sealer: StateSealer;
  logger: ServerLogger;
  legacyAskTimeoutMs: number;
  maxReasks: number;
  pauseMs: number;
  /** Legacy: how many times a low-level handler's InputRequired is answered before the call fails. */
  legacyMaxInputRounds: number;
  /** Exactly-once records of 2026 flows. */
  flows: FlowStore;
  /** How long a record outlives its last write: the requestState lifetime (ms). */
  flowTtlMs: number;
  /** How long a round waits while another copy of the same flow runs (ms). */
  flowBusyWaitMs: number;
  /** The replay linter (see replay-lint.ts); the test kit switches it to 'error'. */
  replayLint: ReplayLintMode;
}

export interface AskRun<T> {
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  target: string;
  params: JsonObject;
  scope: RequestScope;
  io: RequestIO;
  /** One attempt; `io` is the request's, or a silent one for the linter's dry replay. */
  run: (asks: AskPort, state: StateBag, io: RequestIO) => Promise<T>;
}

export async function runWithAsks<T>(deps: EngineDeps, r: AskRun<T>): Promise<Outcome<T>> {
  if (r.scope.era === 'legacy') {
    const port = new LegacyAskPort({
      capabilities: r.scope.clientCapabilities,
      protocolVersion: r.scope.protocolVersion as LegacyVersion,
      requester: r.io.requester,
      signal: r.io.signal,
      timeoutMs: deps.legacyAskTimeoutMs,
      maxReasks: deps.maxReasks,
      pauseMs: deps.pauseMs,
    });
    return { kind: 'complete', value: await runLegacy(deps, port, r) };
  }

  const binding: StateBinding = {
    method: r.method,
    target: r.target,
    principal: r.io.principal?.id,
    revision: r.scope.protocolVersion,
    params: r.params,
  };
  const token = r.params.requestState;
  let flow: FlowState = emptyFlow(''); // its id is minted when the flow store first needs it
  let flowStartedAt: number | undefined;
  const hadState = token !== undefined && token !== null;
  if (hadState) {
    try {
      const opened = await deps.sealer.open(token, binding);
      const read = readFlow(opened.payload);
      if (!read) throw new Error('payload shape');
      flow = read;
      flowStartedAt = opened.flowStartedAt;
    } catch (e) {
      deps.logger.warn('requestState refused', {
        reason: (e as { reason?: string }).reason ?? (e as Error).message,
        method: r.method,
        target: r.target,
      });
      throw stateRefused();
    }
  }
  const lowLevel = hadState ? lowLevelInput(flow, r.params.inputResponses) : undefined;
  const incoming = incomingAnswers(flow, r.params.inputResponses, hadState);

  const hold = new FlowHold(deps, flow, () => r.io.signal);
  if (hadState) {
    // Claim before running anything: a flow that completed answers with its first result.
    const done = await hold.claim();
    if (done) return { kind: 'complete', value: done.result as T };
  }
  try {
    const lint = deps.replayLint === 'off' ? undefined : new DryReplay(flow, incoming, lowLevel, hold.ledger(flow));
    const port = new ReplayAskPort(flow, r.scope.clientCapabilities, lint?.ledger ?? hold.ledger(flow), incoming, deps.maxReasks, lowLevel);
    const state = new StateBag(flow.s);
    let value: T | undefined;
    let failure: unknown;
    let failed = false;
    try {
      value = await (lint ? watchEffects(lint.effects, () => r.run(port, state, r.io)) : r.run(port, state, r.io));
    } catch (e) {
      failed = true;
      failure = e;
    }
    if (failed && failure instanceof ProtocolError) throw failure;
    if (failed && failure instanceof InputRequired) {
      // The low-level path: the handler's own requests and state, sealed in our envelope.
      const explicit = explicitRequests(failure, r.scope.clientCapabilities);
      await hold.claim();
      flow.p = Object.create(null) as FlowState['p'];
      for (const [key, request] of Object.entries(explicit)) flow.p[key] = askFingerprint(request);
      if (failure.requestState === undefined) delete flow.u;
      else flow.u = failure.requestState;
      flow.s = state.toJSON();
      const result: JsonObject = { resultType: 'input_required' };
      if (Object.keys(explicit).length) result.inputRequests = explicit;
      result.requestState = deps.sealer.seal(flow, binding, flowStartedAt);
      return { kind: 'input_required', result };
    }
    if (port.pending.length === 0) {
      if (failed) throw failure;
      await hold.complete(value);
      return { kind: 'complete', value: value as T };
    }

    if (lint) {
      const replay = await lint.replay(r, deps.maxReasks);
      reportReplayProblems(deps.replayLint, deps.logger, `${r.method} ${r.target}`, replayProblems(port.trace, replay, lint.effects));
    }
    // A new flow is registered once it needs a next round (so a full store refuses it now).
    await hold.claim();
    port.markPausesAnswered();
    const inputRequests: Record<string, InputRequest> = {};
    for (const p of port.pending) {
      if (!p.request) continue;
      inputRequests[p.key] = p.request;
      flow.p[p.key] = p.fingerprint;
    }
    flow.s = state.toJSON();
    const requestState = deps.sealer.seal(flow, binding, flowStartedAt);
    const result: JsonObject = { resultType: 'input_required' };
    if (Object.keys(inputRequests).length) result.inputRequests = inputRequests;
    result.requestState = requestState;
    return { kind: 'input_required', result };
  } finally {
    await hold.release();
  }
}

/** This round's answers to the previous InputRequired's requests, and its state string. */
function lowLevelInput(flow: FlowState, responses: unknown): LowLevelInput {
  const inputResponses = Object.create(null) as Record<string, unknown>;
  if (typeof responses === 'object' && responses !== null && !Array.isArray(responses)) {
    for (const [key, value] of Object.entries(responses)) {
      if (hasKey(flow.p, key)) inputResponses[key] = value;
    }
  }
  return { inputResponses, requestState: flow.u };
}

function explicitRequests(signal: InputRequired, capabilities: RequestScope['clientCapabilities']): Record<string, InputRequest> {
  const out: Record<string, InputRequest> = {};
  for (const [key, ask] of Object.entries(signal.inputRequests)) {
    if (!ask.supportedBy(capabilities)) throw ProtocolError.missingCapability(ask.requires, Object.keys(ask.requires).join(', '));
    out[key] = ask.request;
  }
  return out;
}

/**
 * Legacy: a low-level handler's InputRequired is answered here — each request sent to the client
 * on the held connection (a state-only one waits `pauseMs`) — and the handler runs again with the
 * answers, up to `legacyMaxInputRounds` times. Asks inside the handler really await as usual.
 */
async function runLegacy<T>(deps: EngineDeps, port: LegacyAskPort, r: AskRun<T>): Promise<T> {
  const state = new StateBag();
  for (let round = 1; ; round++) {
    try {
      return await r.run(port, state, r.io);
    } catch (e) {
      if (!(e instanceof InputRequired)) throw e;
      if (round > deps.legacyMaxInputRounds) {
        throw ProtocolError.internal(`The handler asked for input more than legacyMaxInputRounds (${deps.legacyMaxInputRounds}) times`);
      }
      port.input = await answerOnLegacy(port, e);
    }
  }
}

async function answerOnLegacy(port: LegacyAskPort, signal: InputRequired): Promise<LowLevelInput> {
  const entries = Object.entries(signal.inputRequests);
  if (entries.length === 0) await port.pause();
  try {
    // The raw response is what the handler reads, as on 2026: no decoding, no re-asking.
    const answers = await Promise.all(entries.map(([, ask]) => port.ask({ ...ask, decode: (value: unknown) => ({ ok: true as const, value, kept: value }) })));
    return { inputResponses: Object.fromEntries(entries.map(([key], i) => [key, answers[i]])), requestState: signal.requestState };
  } catch (e) {
    // The client cannot answer (capability, revision, no channel): its request's problem.
    if (e instanceof FrameworkError && e.code === 'OMC_ASK_UNAVAILABLE') throw ProtocolError.invalidParams(e.detail);
    throw e;
  }
}

