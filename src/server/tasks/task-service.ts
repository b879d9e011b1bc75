/**
 * Tasks (SEP-2663) on top of the ask engine. A call of a task tool from a client that declared
 * the extension reserves a task, runs its first round inline, and answers as usual when the round
 * ends (complete or input_required) within `taskAfterMs`; otherwise it answers `CreateTaskResult`
 * and the round goes on in the background. Each round is an ordinary 2026 round (replayed by the
 * engine): an `input_required` outcome parks the task with its input requests, `tasks/update`
 * collects the answers, and once all are in, the next round runs (on whichever instance received
 * the last answer) with the answers and the sealed requestState the record keeps.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../../context/principal';
import { ProtocolError } from '../../errors/protocol-error';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest } from '../../protocol/jsonrpc';
import type { TaskStore } from '../../state/task-store';
import type { Outcome } from '../replay/engine-types';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';
import type { ServerCore } from '../core/server-core';
import { thrownDetail } from '../core/server-logger';
import { guardedTool, type GuardedTool } from '../methods/guarded';
import { runToolRound } from '../methods/tool-round';
import { isTaskProgress, progressTextOf, TASK_PROGRESS_TOKEN } from './task-progress';
import { outcomeOf, type Settled } from './task-outcome';
import { createTaskView, decodeTask, isTerminal, type TaskRecord } from './task-record';
import {
  FIRST_ROUND_LOST,
  HANDED_BACK,
  leased,
  newRunnerId,
  orphaned,
  rewriteRunner,
  stillRuns,
} from './task-runner';

/** A tools/call answered with a task handle. */
export interface TaskOutcome {
  kind: 'task';
  result: JsonObject;
}


const MAX_CAS_ATTEMPTS = 16;
/** How often a running round checks the store for a cancel another instance received (at least). */
const CANCEL_WATCH_MIN_MS = 250;

export function ownerOf(principal: Principal | undefined): string {
  return principal === undefined ? 'anonymous' : `principal:${principal.id}`;
}

export class TaskService {
  /**
   * Rounds running in this process, by task id: `tasks/cancel` aborts them here, and a watch reads
   * the store now and then so a cancel received by another instance aborts them too.
   */
  private readonly running = new Map<
    string,
    { controller: AbortController; watch: NodeJS.Timeout; runnerId: string; renewedAt: number }
  >();

  constructor(
    private readonly core: ServerCore,
    readonly store: TaskStore,
  ) {}

  /** tools/call of a task tool from a client with the extension (arguments already validated). */
  async call(
    g: GuardedTool,
    req: JsonRpcRequest,
    args: unknown,
    scope: RequestScope,
    io: RequestIO,
  ): Promise<Outcome<JsonObject> | TaskOutcome> {
    const def = g.def;
    const o = this.core.options;
    // Later rounds replay the arguments, so the record keeps them until the task ends: bounded in bytes.
    const argumentsJson = JSON.stringify(req.params?.arguments ?? {});
    const argumentBytes = Buffer.byteLength(argumentsJson);
    if (argumentBytes > o.maxTaskArgumentBytes) {
      throw ProtocolError.invalidParams(
        `tools/call: the arguments take ${argumentBytes} bytes, more than a task keeps (maxTaskArgumentBytes ` +
          `${o.maxTaskArgumentBytes}); call it without the tasks extension, or with smaller arguments`,
      );
    }
    const now = Date.now();
    const at = new Date(now).toISOString();
    const runnerId = newRunnerId();
    const record: TaskRecord = {
      taskId: randomBytes(18).toString('base64url'),
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs: o.taskTtlMs,
      pollIntervalMs: o.taskPollIntervalMs,
      round: 0,
      call: {
        tool: def.name,
        requestId: req.id,
        arguments: req.params?.arguments as JsonObject | undefined,
        argumentsDigest: createHash('sha256').update(argumentsJson).digest('base64url'),
        protocolVersion: scope.protocolVersion,
        clientCapabilities: scope.clientCapabilities,
        clientInfo: scope.clientInfo,
        principal: io.principal && (JSON.parse(JSON.stringify(io.principal)) as Principal),
      },
      runner: { id: runnerId, until: now + o.flowLeaseMs },
    };
    const max = io.principal === undefined ? o.maxAnonymousTasks : o.maxTasksPerPrincipal;
    // Reserved before the handler runs: a refused task has no side effects, and a granted one is durable.
    const owner = ownerOf(io.principal);
    const created = await this.store.create(record.taskId, owner, JSON.stringify(record), now + o.taskTtlMs, max);
    if (created === 'full') {
      const option = io.principal === undefined ? 'maxAnonymousTasks' : 'maxTasksPerPrincipal';
      throw ProtocolError.invalidRequest(
        `tools/call: ${io.principal === undefined ? 'clients without a principal already hold' : 'this principal already holds'} ${max} tasks (${option}); try again once some expire`,
      );
    }
    let escalated = false;
    let progressText: string | undefined;
    const controller = new AbortController();
    const forwardAbort = () => {
      if (!escalated) controller.abort(io.signal.reason);
    };
    if (io.signal.aborted) forwardAbort();
    else io.signal.addEventListener('abort', forwardAbort, { once: true });
    const taskIo: RequestIO = {
      signal: controller.signal,
      principal: io.principal,
      notify: (m) => {
        if (escalated) return this.noteProgress(record.taskId, m);
        progressText = progressTextOf(m) ?? progressText;
        if (scope.progressToken === undefined && isTaskProgress(m)) return;
        io.notify(m);
      },
    };
    this.track(record.taskId, controller, runnerId);
    const taskScope = { ...scope, progressToken: scope.progressToken ?? TASK_PROGRESS_TOKEN };
    const round = settle(() => runToolRound(this.core, g, req, args, taskScope, taskIo));
    let timer: NodeJS.Timeout | undefined;
    const first = await Promise.race([
      round,
      new Promise<'escalate'>((resolve) => (timer = setTimeout(resolve, o.taskAfterMs, 'escalate'))),
    ]);
    clearTimeout(timer);
    if (first !== 'escalate') {
      io.signal.removeEventListener('abort', forwardAbort);
      this.untrack(record.taskId);
      await this.store.delete(record.taskId).catch((e) => this.logFailure('could not free a task', e));
      if (!first.ok) throw first.error;
      return first.value;
    }
    escalated = true;
    io.signal.removeEventListener('abort', forwardAbort);
    // Progress reported before the task existed is its first status message.
    const current =
      progressText === undefined
        ? record
        : ((await this.mutate(record.taskId, undefined, (r) => ({ ...r, statusMessage: progressText })).catch(
            () => undefined,
          )) ?? record);
    void round.then((s) => this.settle(record.taskId, 0, s, runnerId));
    return { kind: 'task', result: createTaskView(current) };
  }

  /** The task when it exists, is unexpired and belongs to `owner`; undefined otherwise. */
  async read(taskId: string, owner: string): Promise<{ record: TaskRecord; version: number } | undefined> {
    const stored = await this.store.get(taskId);
    if (!stored || stored.owner !== owner) return undefined;
    const record = decodeTask(stored.value);
    if (!record || record.taskId !== taskId) return undefined;
    if (orphaned(record)) {
      await this.takeOver(record);
      return this.read(taskId, owner);
    }
    return { record, version: stored.version };
  }

  /**
   * A round whose runner's lease lapsed: resumed here from the record (its answers and the flow's
   * sealed state; the flow store keeps its `ctx.once` records), or failed when it was a first round.
   */
  private async takeOver(r: TaskRecord): Promise<void> {
    const runnerId = newRunnerId();
    const lease = this.core.options.flowLeaseMs;
    const written = await this.mutate(r.taskId, undefined, (cur) => {
      if (!orphaned(cur)) return undefined;
      if (cur.requestState !== undefined) return leased(cur, runnerId, lease);
      const error = { code: -32603, message: FIRST_ROUND_LOST };
      return { ...cur, status: 'failed', statusMessage: FIRST_ROUND_LOST, error, runner: undefined };
    });
    if (!written) return;
    this.core.logger.warn(`task ${r.taskId}: its runner's lease lapsed (its instance stopped)`, {
      outcome: written.status === 'working' ? 'resumed here' : 'failed: a first round is not run again',
    });
    if (written.status === 'working') this.runNext(written, runnerId);
  }

  /**
   * At shutdown: the rounds running here are handed back (their lease ends now) and aborted; the
   * next read of each task, on any instance, resumes it there.
   */
  async handBack(): Promise<void> {
    const handed = [...this.running].map(async ([taskId, { controller, runnerId }]) => {
      this.untrack(taskId);
      const back = (r: TaskRecord) =>
        r.runner?.id === runnerId ? { ...r, runner: { id: HANDED_BACK, until: 0 } } : undefined;
      await rewriteRunner(this.store, taskId, back).catch((e) =>
        this.logFailure(`could not hand task ${taskId} back`, e),
      );
      controller.abort(new Error('server shutting down: task handed back'));
    });
    await Promise.all(handed);
  }

  /**
   * Applies `change` with compare-and-set (retried when another instance wrote in between).
   * `change` returns undefined to leave the task as it is. Resolves to the record written, if any.
   */
  async mutate(
    taskId: string,
    owner: string | undefined,
    change: (r: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    for (let i = 0; i < MAX_CAS_ATTEMPTS; i++) {
      const stored = await this.store.get(taskId);
      if (!stored || (owner !== undefined && stored.owner !== owner)) return undefined;
      const current = decodeTask(stored.value);
      if (!current) return undefined;
      const next = change(current);
      if (!next) return undefined;
      next.lastUpdatedAt = new Date().toISOString();
      if (await this.store.replace(taskId, stored.version, JSON.stringify(next))) return next;
    }
    throw ProtocolError.internal('The task changed too often to be updated; try again');
  }

  /** `tasks/update`: answers the pending requests it names; the next round starts once none is left. */
  async answer(taskId: string, owner: string, responses: JsonObject): Promise<void> {
    const runnerId = newRunnerId();
    const written = await this.mutate(taskId, owner, (r) => {
      if (r.status !== 'input_required') return undefined;
      const pending = { ...r.inputRequests };
      const answers = { ...r.answers };
      let changed = false;
      for (const [key, value] of Object.entries(responses)) {
        if (!Object.prototype.hasOwnProperty.call(pending, key)) continue;
        answers[key] = value;
        delete pending[key];
        changed = true;
      }
      if (!changed) return undefined;
      if (Object.keys(pending).length > 0) return { ...r, inputRequests: pending, answers };
      const round = r.round + 1;
      const next = { ...r, status: 'working' as const, statusMessage: undefined, inputRequests: undefined };
      return leased({ ...next, answers, round }, runnerId, this.core.options.flowLeaseMs);
    });
    if (written?.status === 'working') this.runNext(written, runnerId);
  }

  /** `tasks/cancel`: a task not yet terminal becomes `cancelled`; its round here is aborted. */
  async cancel(taskId: string, owner: string): Promise<void> {
    const written = await this.mutate(taskId, owner, (r) =>
      isTerminal(r.status)
        ? undefined
        : { ...r, status: 'cancelled', statusMessage: 'Cancelled by the client', inputRequests: undefined },
    );
    if (written) this.running.get(taskId)?.controller.abort(new Error('task cancelled'));
  }

  /**
   * Watches a round running here: a cancel (or a takeover) seen in the store aborts it; its owner
   * lease is renewed every third of `flowLeaseMs`.
   */
  private track(taskId: string, controller: AbortController, runnerId: string): void {
    this.untrack(taskId);
    const lease = this.core.options.flowLeaseMs;
    const every = Math.min(Math.max(CANCEL_WATCH_MIN_MS, this.core.options.taskPollIntervalMs), lease / 3);
    const watch = setInterval(() => {
      const entry = this.running.get(taskId);
      this.store
        .get(taskId)
        .then(async (stored) => {
          const r = stored && decodeTask(stored.value);
          if (!r || r.status === 'cancelled') return controller.abort(new Error('task cancelled'));
          if (!stillRuns(r, runnerId)) return controller.abort(new Error('task taken over by another instance'));
          if (!entry || Date.now() - entry.renewedAt < lease / 3) return;
          const renewed = await this.store.replace(taskId, stored.version, JSON.stringify(leased(r, runnerId, lease)));
          if (renewed) entry.renewedAt = Date.now();
        })
        .catch(() => undefined);
    }, every);
    watch.unref?.();
    this.running.set(taskId, { controller, watch, runnerId, renewedAt: Date.now() });
  }

  private untrack(taskId: string): void {
    const entry = this.running.get(taskId);
    if (entry) clearInterval(entry.watch);
    this.running.delete(taskId);
  }

  /** Runs the record's current round (its answers and requestState) in the background. */
  private runNext(r: TaskRecord, runnerId: string): void {
    const def = this.core.registry.tool(r.call.tool);
    if (!def) {
      const error = ProtocolError.internal(`Tool ${r.call.tool} is gone`);
      void this.settle(r.taskId, r.round, { ok: false, error }, runnerId);
      return;
    }
    const params: JsonObject = { name: r.call.tool, inputResponses: askKeyed(r.answers ?? {}, r.keyMap ?? {}) };
    if (r.call.arguments !== undefined) params.arguments = r.call.arguments;
    if (r.requestState !== undefined) params.requestState = r.requestState;
    const req: JsonRpcRequest = { jsonrpc: '2.0', id: r.call.requestId, method: 'tools/call', params };
    const checked = def.validate(r.call.arguments);
    if (!checked.ok) {
      const error = ProtocolError.internal('The task arguments no longer validate');
      void this.settle(r.taskId, r.round, { ok: false, error }, runnerId);
      return;
    }
    const controller = new AbortController();
    this.track(r.taskId, controller, runnerId);
    const scope: RequestScope = {
      era: 'modern',
      protocolVersion: r.call.protocolVersion,
      clientCapabilities: r.call.clientCapabilities,
      clientInfo: r.call.clientInfo,
      progressToken: TASK_PROGRESS_TOKEN,
    };
    const io: RequestIO = {
      signal: controller.signal,
      principal: r.call.principal,
      notify: (m) => this.noteProgress(r.taskId, m),
    };
    const round = settle(() => runToolRound(this.core, guardedTool(this.core, def), req, checked.value, scope, io));
    void round.then((s) => this.settle(r.taskId, r.round, s, runnerId));
  }

  /** Records a round's outcome, unless the task moved on (cancelled, expired, another round). */
  private async settle(taskId: string, round: number, s: Settled, runnerId: string): Promise<void> {
    if (this.running.get(taskId)?.runnerId === runnerId) this.untrack(taskId);
    const next = newRunnerId();
    try {
      const written = await this.mutate(taskId, undefined, (r) => {
        // A round taken over (or handed back) is another runner's now: its outcome is not this one's to write.
        if (isTerminal(r.status) || r.round !== round || !stillRuns(r, runnerId)) return undefined;
        const failed = (e: unknown) => this.logFailure(`task ${r.taskId} failed`, e);
        const outcome = outcomeOf(r, s, this.core.options.maxTaskResultBytes, failed);
        return outcome.status === 'working' ? leased(outcome, next, this.core.options.flowLeaseMs) : outcome;
      });
      // A requestState-only round (ctx.pause): nothing to ask, run the next one after the pause.
      if (written?.status === 'working' && written.round === round + 1) {
        setTimeout(() => this.runNext(written, next), this.core.options.pauseMs).unref?.();
      }
    } catch (e) {
      this.logFailure(`could not record the outcome of task ${taskId}`, e);
    }
  }

  /** Progress inside a task becomes its statusMessage; other notifications have no stream to go to. */
  private noteProgress(taskId: string, m: JsonRpcNotification): void {
    const text = progressTextOf(m);
    if (text === undefined) return;
    void this.mutate(taskId, undefined, (r) =>
      r.status === 'working' ? { ...r, statusMessage: text } : undefined,
    ).catch((e) => this.logFailure(`could not record progress of task ${taskId}`, e));
  }

  private logFailure(what: string, e: unknown): void {
    this.core.logger.error(what, thrownDetail(e));
  }
}

/** A round's outcome or its throw (a round may settle synchronously, or throw before it awaits). */
async function settle(round: () => Outcome<object> | Promise<Outcome<object>>): Promise<Settled> {
  try {
    return { ok: true, value: (await round()) as Outcome<JsonObject> };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The answers by the handler's ask keys (a wire key differs only when an ask key came back). */
function askKeyed(answers: JsonObject, keyMap: Record<string, string>): JsonObject {
  return Object.fromEntries(Object.entries(answers).map(([wire, v]) => [keyMap[wire] ?? wire, v]));
}
