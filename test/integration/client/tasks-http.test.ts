/**
 * A task over real Streamable HTTP: ContextClient's tasks/get, tasks/update and tasks/cancel pass
 * the server's header ladder (Mcp-Name is the taskId), and the server keeps serving after hostile
 * task requests sent raw.
 */
import { IsBoolean } from 'class-validator';
import { Context, ContextClient, Field, serveHttp, Tool, type HttpServerHandle } from '../../../src';
import { TASKS_EXTENSION } from '../../../src/protocol/extensions';
import { makeApp } from '../../helpers/apps';
import { modernPost, replyOf } from '../../helpers/http-fixtures';

class GoForm {
  @Field({ description: 'Go on?' }) @IsBoolean() go!: boolean;
}

class Builds {
  @Tool({ description: 'a build that asks half-way', task: 'required', forms: [GoForm] })
  async build(ctx: Context): Promise<string> {
    await new Promise((r) => setTimeout(r, 30));
    const answer = await ctx.elicit(GoForm, 'Deploy the build?', { key: 'deploy' });
    return answer.action === 'accept' && answer.content.go ? 'deployed' : 'built only';
  }
}

let handle: HttpServerHandle;
beforeAll(async () => {
  handle = await serveHttp(makeApp([Builds], { taskAfterMs: 0, taskPollIntervalMs: 10 }), { port: 0 });
});
afterAll(() => handle.close({ deadlineMs: 500 }));

test('ContextClient follows a task over HTTP', async () => {
  const client = await ContextClient.connect(
    { url: handle.url },
    { protocolVersion: '2026-07-28', elicitation: async () => ({ action: 'accept', content: { go: true } }) },
  );
  expect((await client.callTool('build')).content).toEqual([{ type: 'text', text: 'deployed' }]);
  await client.close();
});

test('hostile task requests are refused and the server keeps serving', async () => {
  const caps = { _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } } } };
  const named = (taskId: string) => ({ 'Mcp-Name': taskId });
  const unknown = replyOf(await modernPost(handle.url, 1, 'tasks/get', { taskId: 'nope', ...caps }, named('nope')));
  expect(unknown.error?.code).toBe(-32602);
  const update = { taskId: 'x', inputResponses: 'no', ...caps };
  expect(replyOf(await modernPost(handle.url, 2, 'tasks/update', update, named('x'))).error?.code).toBe(-32602);
  const noExtension = replyOf(await modernPost(handle.url, 3, 'tasks/cancel', { taskId: 'x' }, named('x')));
  expect(noExtension.error?.code).toBe(-32021);
  // Mcp-Name must mirror the taskId.
  const mismatch = await modernPost(handle.url, 4, 'tasks/get', { taskId: 'a', ...caps }, named('b'));
  expect([mismatch.status, replyOf(mismatch).error?.code]).toEqual([400, -32020]);
  const client = await ContextClient.connect(
    { url: handle.url },
    { protocolVersion: '2026-07-28', elicitation: async () => ({ action: 'decline' }) },
  );
  expect((await client.callTool('build')).content).toEqual([{ type: 'text', text: 'built only' }]);
  await client.close();
});
