/**
 * Runs a handler that may ask: the replay engine's entry. On 2026-07-28 a round goes through three
 * rooms in order — flow-open.ts builds it (sealed state and this round's answers), round-attempt.ts
 * runs the handler from the top, round-end.ts completes it or seals `input_required` with every
 * unanswered ask — with the flow held in the store (flow-hold.ts) around them. On legacy revisions
 * the same handler really awaits the client (legacy-flow.ts); nothing is replayed.
 *
 * replay/ is the engine whole: these rooms, the types they share (engine-types.ts), the dry replay
 * and the replay linter that check a round that asks, and the undeclared-forms report. The methods
 * that run user code call in here (methods/tool-round.ts for a tool call or a task's round).
 */
import type { AskRun, EngineDeps, Outcome } from './engine-types';
import { FlowHold } from './flow-hold';
import { openRound, type OpenedRound } from './flow-open';
import { runLegacy } from './legacy-flow';
import { runRound } from './round-attempt';
import { telemetryOf } from '../request/request-telemetry-of';

/**
 * The outcome of one request's round. A first round whose handler returns synchronously and asks
 * nothing settles synchronously: no promise, no async frame (the common call).
 */
export function runWithAsks<T>(deps: EngineDeps, r: AskRun<T>): Outcome<T> | Promise<Outcome<T>> {
  if (r.scope.era === 'legacy') {
    const value = runLegacy(deps, r);
    return value instanceof Promise ? value.then(completed) : completed(value);
  }
  // A first round opens without I/O: no promise to wait for.
  const opening = openRound(deps, r);
  if (opening instanceof Promise || opening.continues) return runFlowRound(deps, r, opening);
  // Not held when it settles synchronously; round-end.ts releases what its end held.
  return runRound(deps, r, opening, new FlowHold(deps, opening.flow, r.io));
}

function completed<T>(value: T): Outcome<T> {
  return { kind: 'complete', value };
}

/*
 * A continuing round: one async frame around the claim and the attempt. (Chaining the same steps through
 * `.then` callbacks kept each request's objects alive across more young-generation GCs: 2.3× the bytes
 * promoted per MRTR request, 1.27× its CPU.)
 */
async function runFlowRound<T>(
  deps: EngineDeps,
  r: AskRun<T>,
  opening: OpenedRound | Promise<OpenedRound>,
): Promise<Outcome<T>> {
  const round = opening instanceof Promise ? await opening : opening;
  const hold = new FlowHold(deps, round.flow, r.io, round.flowStartedAt);
  if (round.continues) {
    telemetryOf(r.scope)?.continueFlow(hold.flowId, round.flow.firstSpan);
    // Claim before running anything: a flow that completed answers with its first result.
    const claiming = hold.claim();
    const done = claiming instanceof Promise ? await claiming : claiming;
    if (done) return { kind: 'complete', value: done.result as T };
  }
  try {
    return await runRound(deps, r, round, hold);
  } finally {
    // round-end.ts released it; still held only after a synchronous throw
    const releasing = hold.held ? hold.release() : undefined;
    if (releasing) await releasing;
  }
}
