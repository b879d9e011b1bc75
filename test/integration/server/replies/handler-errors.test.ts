/**
 * Handler exceptions: logged with their stack on the server, never on the wire; documented not-found / invalid-params
 * helpers.
 */
import { IsString } from 'class-validator';
import {
  ContextClient,
  ContextServerModule,
  InvalidParamsError,
  McpApplication,
  NotFoundError,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
  bothEras,
  serveHttp,
  type HttpServerHandle,
} from '../../../../src';
import { recordingLogger } from '../../../helpers/apps';

class TopicArgs {
  @IsString() topic!: string;
}

class Failing {
  @Tool({ description: 'throws' })
  explode(): string {
    throw new Error('tool exploded');
  }
  @Tool({ description: 'throws NotFoundError' })
  lookup(): string {
    throw new NotFoundError('no such order');
  }
  @Prompt({ description: 'refuses some topics' })
  plan(args: TopicArgs) {
    if (args.topic === 'missing') throw new NotFoundError(`No plan for ${args.topic}`);
    if (args.topic === 'bad') throw new InvalidParamsError('topic must be a city', { field: 'topic' });
    throw new Error('prompt exploded');
  }
  @Resource({ uri: 'test://broken' })
  broken(): string {
    throw new Error('resource exploded');
  }
  @ResourceTemplate({ uriTemplate: 'test://items/{id}' })
  item({ id }: { id: string }) {
    if (id === 'bad') throw new InvalidParamsError('id must be a number');
    throw new NotFoundError(`No item ${id}`, { hint: 'ids are numbers' });
  }
}

bothEras('handler errors', (era) => {
  const logger = recordingLogger();
  let server: HttpServerHandle;
  let client: ContextClient;

  beforeAll(async () => {
    const app = McpApplication.create({
      name: 'errors',
      version: '1.0.0',
      providers: [Failing],
      modules: [ContextServerModule.configure({ logger })],
    });
    server = await serveHttp(app, { port: 0 });
    client = await ContextClient.connect({ url: server.url }, { protocolVersion: era });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });
  beforeEach(() => logger.lines.splice(0));

  const logged = (fragment: string) => logger.lines.find((l) => l.message.includes(fragment));

  test('a tool exception is an isError result for the model; the stack is only in the server log', async () => {
    const result = await client.callTool('explode');
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'tool exploded' }] });
    expect(JSON.stringify(result)).not.toContain('handler-errors.test');
    const line = logged('tool Failing.explode failed');
    expect(line?.detail).toMatchObject({ error: 'tool exploded' });
    expect(line?.detail?.stack).toEqual(expect.stringContaining('handler-errors.test.ts'));
  });

  test('NotFoundError in a tool is an ordinary tool error', async () => {
    expect(await client.callTool('lookup')).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'no such order' }],
    });
  });

  test('a prompt or resource exception is -32603 "Internal error", logged with its stack', async () => {
    for (const call of [() => client.getPrompt('plan', { topic: 'x' }), () => client.readResource('test://broken')]) {
      const error = await call().then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: -32603, message: 'Internal error' });
      expect(JSON.stringify(error)).not.toContain('exploded');
    }
    expect(logged('handler Failing.plan failed')?.detail).toMatchObject({
      error: 'prompt exploded',
      stack: expect.stringContaining('handler-errors.test.ts'),
    });
    expect(logged('handler Failing.broken failed')?.detail).toMatchObject({
      error: 'resource exploded',
      stack: expect.stringContaining('at '),
    });
  });

  test('NotFoundError from a resource is the revision\'s resource-not-found, with data.uri', async () => {
    await expect(client.readResource('test://items/7')).rejects.toMatchObject({
      code: era === '2026-07-28' ? -32602 : -32002,
      message: 'No item 7',
      data: { uri: 'test://items/7', hint: 'ids are numbers' },
    });
    expect(logger.lines).toEqual([]);
  });

  test('NotFoundError and InvalidParamsError from a prompt, InvalidParamsError from a resource: -32602', async () => {
    await expect(client.getPrompt('plan', { topic: 'missing' })).rejects.toMatchObject({
      code: -32602,
      message: 'No plan for missing',
    });
    await expect(client.getPrompt('plan', { topic: 'bad' })).rejects.toMatchObject({
      code: -32602,
      message: 'topic must be a city',
      data: { field: 'topic' },
    });
    await expect(client.readResource('test://items/bad')).rejects.toMatchObject({
      code: -32602,
      message: 'id must be a number',
    });
  });
});

test('the default stderr logger prints the stack on its own lines, after the message', () => {
  const { stderrLogger, thrownDetail } =
    require('../../../../src/server/core/server-logger') as typeof import('../../../../src/server/core/server-logger');
  const written: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    stderrLogger.error('tool T.x failed', thrownDetail(new Error('boom')));
  } finally {
    spy.mockRestore();
  }
  const [first, ...rest] = written.join('').split('\n');
  expect(first).toBe('[onemodelcontext] error: tool T.x failed {"error":"boom"}');
  expect(rest[0]).toBe('Error: boom');
  expect(rest[1]).toMatch(/^\s+at /);
});
