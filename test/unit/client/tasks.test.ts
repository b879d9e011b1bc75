/**
 * ContextClient and the test kit follow a task (SEP-2663): the call becomes a task, the client
 * polls it, answers its ask with the same elicitation handler as an input_required round, and
 * returns the result. The same handler on legacy and on 2026 without the extension agrees.
 */
import { IsBoolean } from 'class-validator';
import { callInfo, Context, ContextClient, Field, TestClient, Tool, type ElicitResult } from '../../../src';
import { makeApp } from '../../helpers/apps';

class PublishForm {
  @Field({ description: 'Publish?' }) @IsBoolean() ok!: boolean;
}

class Reports {
  @Tool({ description: 'a long report that asks before publishing', task: 'optional', forms: [PublishForm] })
  async report(ctx: Context): Promise<string> {
    await ctx.progress(1, 2, 'collecting');
    await new Promise((r) => setTimeout(r, 20));
    const answer = await ctx.elicit(PublishForm, 'Publish the report?', { key: 'publish' });
    return answer.action === 'accept' && answer.content.ok ? 'published' : 'kept';
  }

  @Tool({ description: 'fails as a task', task: 'optional' })
  async broken(): Promise<string> {
    await new Promise((r) => setTimeout(r, 20));
    throw new Error('no data');
  }
}

const app = makeApp([Reports], { taskAfterMs: 0, taskPollIntervalMs: 5 });
const yes = async (): Promise<ElicitResult> => ({ action: 'accept', content: { ok: true } });

test('ContextClient follows a task to its result, answering its ask with the elicitation handler', async () => {
  const asked: string[] = [];
  const client = await ContextClient.connect(
    { app },
    {
      protocolVersion: '2026-07-28',
      elicitation: async (params, ctx) => (asked.push(`${ctx.key}:${params.message}`), yes()),
    },
  );
  const statuses: string[] = [];
  const result = await client.callTool('report', {}, { onTaskStatus: (t) => statuses.push(t.status) });
  expect(result.content).toEqual([{ type: 'text', text: 'published' }]);
  expect(asked).toEqual(['publish:Publish the report?']);
  expect(statuses[0]).toBe('working');
  expect(statuses).toContain('input_required');
  expect(statuses.at(-1)).toBe('completed');
  expect(callInfo(result)).toMatchObject({ era: 'modern', asks: 1, taskId: expect.any(String) });
  // A tool error is a completed task with isError, returned like any tool result.
  expect(await client.callTool('broken')).toMatchObject({ isError: true, content: [{ text: 'no data' }] });
  await client.close();
});

test('manual returns the task handle as it is', async () => {
  const client = await ContextClient.connect({ app }, { protocolVersion: '2026-07-28', elicitation: yes });
  const handle = await client.callTool('report', {}, { manual: true });
  expect(handle).toMatchObject({ resultType: 'task', status: 'working' });
  await client.request('tasks/cancel', { taskId: (handle as unknown as { taskId: string }).taskId });
  await client.close();
});

test.each([
  ['2026-07-28 as a task', '2026-07-28', true],
  ['2026-07-28 synchronously (no extension)', '2026-07-28', false],
  ['2025-11-25 (a real elicitation)', '2025-11-25', true],
] as const)('the test kit drives the same handler: %s', async (_label, era, tasks) => {
  const answers = { publish: { action: 'accept' as const, content: { ok: true } } };
  const kit = await TestClient.connect(app, { era, tasks, answers });
  const run = await kit.callTool('report');
  expect(run.text).toBe('published');
  expect(run.asks).toBe(1);
  expect(run.taskId !== undefined).toBe(era === '2026-07-28' && tasks);
  await kit.close();
});
