/**
 * Tasks (SEP-2663) through the dispatcher: a task tool from a client with the extension becomes a
 * task, its ask is answered through tasks/update, and the same handler gives the same result run
 * synchronously (2026 without the extension: MRTR) and on a legacy session (a real elicitation).
 */
import { IsBoolean, IsString } from 'class-validator';
import {
  Context,
  ContextServerOptions,
  Field,
  Tool,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '../../../../src';
import { TASKS_EXTENSION } from '../../../../src/protocol/extensions';
import { makeApp, MemoryClient } from '../../../helpers/apps';

class ConfirmForm {
  @Field({ description: 'Go ahead?' }) @IsBoolean() ok!: boolean;
}

/** Released by the test: a round that awaits it cannot finish inline (taskAfterMs is 0 here). */
class Gate {
  private open!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.open = resolve));
  release(): void {
    this.open();
  }
}
const gate = new Gate();
let lastSignal: AbortSignal | undefined;

class Jobs {
  @Tool({ description: 'works, reports progress, asks, finishes', task: 'optional', forms: [ConfirmForm] })
  async report(ctx: Context): Promise<string> {
    await ctx.progress(1, 3, 'warming up');
    await gate.opened;
    const answer = await ctx.elicit(ConfirmForm, 'Publish the report?', { key: 'publish' });
    const ok = answer.action === 'accept' && answer.content.ok;
    return ok ? 'report published' : 'report kept';
  }

  @Tool({ description: 'waits until cancelled', task: 'required' })
  async forever(ctx: Context): Promise<string> {
    lastSignal = ctx.signal;
    await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))));
    return 'never';
  }

  @Tool({ description: 'a result too large to keep', task: 'optional' })
  async huge(): Promise<string> {
    await gate.opened;
    await new Promise((r) => setTimeout(r, 5));
    return 'x'.repeat(4096);
  }

  @Tool({ description: 'quick', task: 'optional' })
  quick(): string {
    return 'at once';
  }
}

class Note {
  @IsString() @Field() text!: string;
}

class Notes {
  @Tool({ description: 'keeps a note', task: 'optional' })
  note(args: Note): string {
    return `noted ${args.text.length}`;
  }
}

class NotMallory implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    return ctx.principal?.id !== 'mallory';
  }
}

class Hidden {
  @Tool({ description: 'a task tool mallory must not learn of', task: 'required' })
  @UseGuards(new NotMallory())
  secret(): string {
    return 'secret';
  }
}

const withTasks = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const app = makeApp([Jobs, Hidden], { taskAfterMs: 0, maxAnonymousTasks: 50, maxTasksPerPrincipal: 3 });

async function until(c: MemoryClient, taskId: string, status: string): Promise<Record<string, unknown>> {
  for (;;) {
    const t = await c.request('tasks/get', { taskId });
    if (t.status === status) return t;
    if (['completed', 'failed', 'cancelled'].includes(t.status as string)) throw new Error(`ended ${String(t.status)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function codeOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => 'no error',
    (e: { code?: number }) => e.code,
  );
}

describe('a task with an ask, answered through the task API (2026-07-28)', () => {
  test('working with progress, input_required, tasks/update, completed', async () => {
    const c = await MemoryClient.connect(app, { era: 'modern', capabilities: withTasks });
    const created = await c.request('tools/call', { name: 'report', arguments: {} });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: expect.any(Number) });
    expect(created).not.toHaveProperty('requestState');
    const taskId = created.taskId as string;
    const working = await c.request('tasks/get', { taskId });
    expect(working).toMatchObject({ resultType: 'complete', taskId, status: 'working', statusMessage: 'warming up' });

    gate.release();
    const parked = await until(c, taskId, 'input_required');
    const keys = Object.keys(parked.inputRequests as object);
    expect(keys).toHaveLength(1);
    expect((parked.inputRequests as Record<string, { method: string }>)[keys[0]!]!.method).toBe('elicitation/create');

    const ack = await c.request('tasks/update', {
      taskId,
      inputResponses: { [keys[0]!]: { action: 'accept', content: { ok: true } } },
    });
    expect(ack).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const done = await until(c, taskId, 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'report published' }] });
    expect(done).not.toHaveProperty('requestState');
  });

  test('the same handler: synchronously on 2026 (MRTR) and really awaiting on legacy', async () => {
    gate.release();
    const modern = await MemoryClient.connect(app, { era: 'modern', capabilities: { elicitation: {} } });
    const first = await modern.request('tools/call', { name: 'report', arguments: {} });
    expect(first.resultType).toBe('input_required');
    const retry = await modern.request('tools/call', {
      name: 'report',
      arguments: {},
      inputResponses: { publish: { action: 'accept', content: { ok: true } } },
      requestState: first.requestState,
    });
    expect(retry).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'report published' }] });

    const legacy = await MemoryClient.connect(app, {
      era: 'legacy',
      capabilities: { elicitation: {} },
      handlers: { 'elicitation/create': async () => ({ action: 'accept', content: { ok: true } }) },
    });
    expect(await legacy.request('tools/call', { name: 'report', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'report published' }],
    });
  });

  test('a call that finishes within taskAfterMs answers as usual', async () => {
    const c = await MemoryClient.connect(app, { era: 'modern', capabilities: withTasks });
    expect(await c.request('tools/call', { name: 'quick', arguments: {} })).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'at once' }],
    });
  });

  test('tasks/cancel settles the task as cancelled and aborts its handler', async () => {
    const c = await MemoryClient.connect(app, { era: 'modern', capabilities: withTasks });
    const { taskId } = await c.request('tools/call', { name: 'forever', arguments: {} });
    expect(await c.request('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
    expect((await c.request('tasks/get', { taskId })).status).toBe('cancelled');
    expect(lastSignal?.aborted).toBe(true);
    // Idempotent on a terminal task.
    expect(await c.request('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
  });
});

describe('hostile and malformed input on the task API', () => {
  test('unknown id, malformed params, methods of the old tasks, no extension', async () => {
    const c = await MemoryClient.connect(app, { era: 'modern', capabilities: withTasks });
    expect(await codeOf(c.request('tasks/get', { taskId: 'no-such-task' }))).toBe(-32602);
    expect(await codeOf(c.request('tasks/get', { taskId: 42 }))).toBe(-32602);
    expect(await codeOf(c.request('tasks/get', { taskId: 'x'.repeat(300) }))).toBe(-32602);
    expect(await codeOf(c.request('tasks/update', { taskId: 'no-such-task', inputResponses: [] }))).toBe(-32602);
    expect(await codeOf(c.request('tasks/update', { taskId: 'no-such-task', inputResponses: null }))).toBe(-32602);
    expect(await c.request('tasks/update', { taskId: 'no-such-task', inputResponses: {} })).toMatchObject({
      resultType: 'complete',
    });
    expect(await c.request('tasks/cancel', { taskId: 'no-such-task' })).toMatchObject({ resultType: 'complete' });
    expect(await codeOf(c.request('tasks/result', { taskId: 'no-such-task' }))).toBe(-32601);
    expect(await codeOf(c.request('tasks/list', {}))).toBe(-32601);

    const plain = await MemoryClient.connect(app, { era: 'modern', capabilities: {} });
    expect(await codeOf(plain.request('tasks/get', { taskId: 'x' }))).toBe(-32021);
    const refused = await plain.raw('tools/call', { name: 'forever', arguments: {} });
    expect(refused).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } },
    });
    const legacy = await MemoryClient.connect(app, { era: 'legacy', capabilities: {} });
    expect(await codeOf(legacy.request('tasks/get', { taskId: 'x' }))).toBe(-32601);
    // The server keeps serving.
    expect((await c.request('tools/call', { name: 'quick', arguments: {} })).resultType).toBe('complete');
  });

  test("another principal's task is invisible to it", async () => {
    const alice = await MemoryClient.connect(app, {
      era: 'modern',
      capabilities: withTasks,
      principal: { id: 'alice' },
    });
    const mallory = await MemoryClient.connect(app, {
      era: 'modern',
      capabilities: withTasks,
      principal: { id: 'mallory' },
    });
    const { taskId } = await alice.request('tools/call', { name: 'forever', arguments: {} });
    expect(await codeOf(mallory.request('tasks/get', { taskId }))).toBe(-32602);
    expect(await mallory.request('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
    expect((await alice.request('tasks/get', { taskId })).status).toBe('working');
    await alice.request('tasks/cancel', { taskId });
  });

  test('too many tasks for one principal are refused before the handler runs', async () => {
    const c = await MemoryClient.connect(app, { era: 'modern', capabilities: withTasks, principal: { id: 'busy' } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await c.request('tools/call', { name: 'forever', arguments: {} })).taskId as string);
    }
    const before = lastSignal;
    const refused = await c.raw('tools/call', { name: 'forever', arguments: {} });
    expect(refused).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('maxTasksPerPrincipal') },
    });
    expect(lastSignal).toBe(before);
    for (const taskId of ids) await c.request('tasks/cancel', { taskId });
  });

  test('at the defaults, all anonymous callers together keep at most 256 MiB of task records (issue 31, N2)', async () => {
    const d = new ContextServerOptions();
    const perTask = d.maxTaskArgumentBytes + d.maxTaskResultBytes;
    expect(d.maxAnonymousTasks * perTask).toBeLessThanOrEqual(256 * 1_048_576);
    expect(d.maxTasksPerPrincipal * perTask).toBeLessThanOrEqual(256 * 1_048_576);
    // The count is what enforces it: at the default, one more anonymous task is refused, naming the option.
    const defaults = makeApp([Jobs], { taskAfterMs: 0 });
    const anonymous = await MemoryClient.connect(defaults, { era: 'modern', capabilities: withTasks });
    const ids: string[] = [];
    for (let i = 0; i < d.maxAnonymousTasks; i++) {
      ids.push((await anonymous.request('tools/call', { name: 'forever', arguments: {} })).taskId as string);
    }
    expect(await anonymous.raw('tools/call', { name: 'forever', arguments: {} })).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('maxAnonymousTasks') },
    });
    const alice = await MemoryClient.connect(defaults, {
      era: 'modern',
      capabilities: withTasks,
      principal: { id: 'alice' },
    });
    const { taskId } = await alice.request('tools/call', { name: 'forever', arguments: {} });
    await alice.request('tasks/cancel', { taskId });
    for (const id of ids) await anonymous.request('tasks/cancel', { taskId: id });
  });

  test('at the task cap, a guard-hidden task tool answers like an unknown tool (issue 31, N7)', async () => {
    const c = await MemoryClient.connect(app, { era: 'modern', capabilities: withTasks, principal: { id: 'mallory' } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await c.request('tools/call', { name: 'forever', arguments: {} })).taskId as string);
    }
    const hidden = await c.raw('tools/call', { name: 'secret', arguments: {} });
    const unknown = await c.raw('tools/call', { name: 'no-such-tool', arguments: {} });
    expect(hidden).toMatchObject({ error: { code: -32602, message: 'Unknown tool: secret' } });
    expect(unknown).toMatchObject({ error: { code: -32602, message: 'Unknown tool: no-such-tool' } });
    // Another principal sees the tool and is served.
    const ada = await MemoryClient.connect(app, { era: 'modern', capabilities: withTasks, principal: { id: 'ada' } });
    const served = await ada.request('tools/call', { name: 'secret', arguments: {} });
    expect(served).toMatchObject({ resultType: 'complete' });
    for (const taskId of ids) await c.request('tasks/cancel', { taskId });
  });

  test('arguments larger than maxTaskArgumentBytes are refused before a task is made (issue 31, N2)', async () => {
    const small = makeApp([Notes], { taskAfterMs: 0, maxTaskArgumentBytes: 1024 });
    const c = await MemoryClient.connect(small, { era: 'modern', capabilities: withTasks });
    const big = await c.raw('tools/call', { name: 'note', arguments: { text: 'x'.repeat(2000) } });
    expect(big).toMatchObject({ error: { code: -32602, message: expect.stringContaining('maxTaskArgumentBytes') } });
    const fine = await c.request('tools/call', { name: 'note', arguments: { text: 'x'.repeat(100) } });
    expect(JSON.stringify(fine)).toMatch(/noted 100|"taskId"/);
  });

  test('a result larger than maxTaskResultBytes fails the task instead of being kept', async () => {
    const small = makeApp([Jobs], { taskAfterMs: 0, maxTaskResultBytes: 1024 });
    const c = await MemoryClient.connect(small, { era: 'modern', capabilities: withTasks });
    gate.release();
    const { taskId } = await c.request('tools/call', { name: 'huge', arguments: {} });
    const task = await until(c, taskId as string, 'failed');
    expect(task).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(task).not.toHaveProperty('result');
  });
});
