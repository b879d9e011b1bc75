/**
 * Tasks on Redis: the RedisTaskStore against a real redis-server (caps, compare-and-set, TTLs),
 * and two app instances sharing it through RedisModule — a task created on A parks on its ask,
 * is read and answered on B (which runs the next round), and is read completed on A.
 */
import { randomBytes } from 'node:crypto';
import { IsBoolean } from 'class-validator';
import { Context, ContextServerModule, Field, McpApplication, MemoryClient, Tool } from '../../../src';
import { TASKS_EXTENSION } from '../../../src/protocol/extensions';
import { RedisModule, RedisTaskStore } from '../../../src/redis';
import { silentLogger } from '../../../src/server/core/server-logger';
import { expectEveryKeyExpires, useRedisServer } from './fixture';

const redis = useRedisServer();

describe('RedisTaskStore', () => {
  test('create, read, compare-and-set, delete; every key expires', async () => {
    const c = await redis.connect();
    const store = new RedisTaskStore(c);
    const at = Date.now() + 60_000;
    expect(await store.create('t1', 'alice', '{"v":1}', at, 2)).toBe('created');
    expect(await store.create('t2', 'alice', '{"v":2}', at, 2)).toBe('created');
    expect(await store.create('t3', 'alice', '{"v":3}', at, 2)).toBe('full');
    expect(await store.create('t3', 'bob', '{"v":3}', at, 2)).toBe('created');
    expect(await store.get('t1')).toEqual({ owner: 'alice', version: 1, value: '{"v":1}', expiresAt: at });
    expect(await store.replace('t1', 1, '{"v":11}')).toBe(true);
    expect(await store.replace('t1', 1, '{"v":12}')).toBe(false);
    expect(await store.get('t1')).toMatchObject({ version: 2, value: '{"v":11}' });
    expect(await store.replace('nope', 1, '{}')).toBe(false);
    expect(await store.get('nope')).toBeUndefined();
    await expectEveryKeyExpires(c);
    await store.delete('t1');
    expect(await store.get('t1')).toBeUndefined();
    // The freed place counts again.
    expect(await store.create('t4', 'alice', '{}', at, 2)).toBe('created');
  });

  test('an expired task is gone and frees its place', async () => {
    const store = new RedisTaskStore(await redis.connect());
    expect(await store.create('old', 'carol', '{}', Date.now() + 150, 1)).toBe('created');
    expect(await store.create('new', 'carol', '{}', Date.now() + 60_000, 1)).toBe('full');
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.get('old')).toBeUndefined();
    expect(await store.create('new', 'carol', '{}', Date.now() + 60_000, 1)).toBe('created');
  });
});

class ApproveForm {
  @Field({ description: 'Approve?' }) @IsBoolean() ok!: boolean;
}

let aborted: () => void = () => undefined;
const abortSeen = new Promise<void>((resolve) => (aborted = resolve));

class Approvals {
  @Tool({ description: 'runs until cancelled', task: 'optional' })
  async forever(ctx: Context): Promise<string> {
    await new Promise((_resolve, reject) =>
      ctx.signal.addEventListener('abort', () => (aborted(), reject(new Error('stopped'))), { once: true }),
    );
    return 'never';
  }

  @Tool({ description: 'works, then asks for approval', task: 'optional', forms: [ApproveForm] })
  async approve(ctx: Context): Promise<string> {
    await new Promise((r) => setTimeout(r, 50));
    const answer = await ctx.elicit(ApproveForm, 'Approve the booking?', { key: 'approve' });
    return answer.action === 'accept' && answer.content.ok ? `approved on pid ${process.pid}` : 'declined';
  }
}

test('a task created on one instance is read, answered and finished through another', async () => {
  const key = randomBytes(32);
  const prefix = `t${randomBytes(4).toString('hex')}:`;
  const instance = () =>
    McpApplication.create({
      name: 'redis-tasks',
      version: '1.0.0',
      providers: [Approvals],
      modules: [
        ContextServerModule.configure({ logger: silentLogger, requestStateKey: key, taskAfterMs: 0 }),
        RedisModule.configure({ url: redis.server().url, keyPrefix: prefix }),
      ],
    });
  const [a, b] = [instance(), instance()];
  try {
    const capabilities = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
    const onA = await MemoryClient.connect(a, { era: 'modern', capabilities });
    const onB = await MemoryClient.connect(b, { era: 'modern', capabilities });
    const created = await onA.request('tools/call', { name: 'approve', arguments: {} });
    expect(created.resultType).toBe('task');
    const taskId = created.taskId as string;
    // Strongly consistent: the other instance reads it at once.
    expect((await onB.request('tasks/get', { taskId })).taskId).toBe(taskId);
    let parked = await onB.request('tasks/get', { taskId });
    while (parked.status === 'working') {
      await new Promise((r) => setTimeout(r, 10));
      parked = await onB.request('tasks/get', { taskId });
    }
    expect(parked.status).toBe('input_required');
    const [askKey] = Object.keys(parked.inputRequests as object);
    const yes = { action: 'accept', content: { ok: true } };
    await onB.request('tasks/update', { taskId, inputResponses: { [askKey!]: yes } });
    let done = await onA.request('tasks/get', { taskId });
    while (done.status === 'working') {
      await new Promise((r) => setTimeout(r, 10));
      done = await onA.request('tasks/get', { taskId });
    }
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: expect.stringMatching(/^approved/) }] },
    });
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('a cancel received by another instance aborts the round running on the first', async () => {
  const key = randomBytes(32);
  const prefix = `t${randomBytes(4).toString('hex')}:`;
  const instance = () =>
    McpApplication.create({
      name: 'redis-tasks',
      version: '1.0.0',
      providers: [Approvals],
      modules: [
        ContextServerModule.configure({ logger: silentLogger, requestStateKey: key, taskAfterMs: 0 }),
        RedisModule.configure({ url: redis.server().url, keyPrefix: prefix }),
      ],
    });
  const [a, b] = [instance(), instance()];
  try {
    const capabilities = { extensions: { [TASKS_EXTENSION]: {} } };
    const onA = await MemoryClient.connect(a, { era: 'modern', capabilities });
    const onB = await MemoryClient.connect(b, { era: 'modern', capabilities });
    const { taskId } = await onA.request('tools/call', { name: 'forever', arguments: {} });
    await onB.request('tasks/cancel', { taskId });
    expect((await onA.request('tasks/get', { taskId })).status).toBe('cancelled');
    await abortSeen; // the handler on A saw its signal abort
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
