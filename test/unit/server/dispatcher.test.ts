import { replyStatus } from '../../../src/transports/http/reply-status';
import { IsInt, IsString, Min } from 'class-validator';
import { Complete, Context, Field, Prompt, Resource, ResourceTemplate, Tool } from '../../../src';
import { Meta } from '../../../src/protocol/meta';
import { clients, makeApp, MemoryClient } from '../../helpers/apps';
import { dispatcherOf } from '../../../src/app/dispatcher-of';

class AddArgs {
  @IsInt() @Field({ description: 'first' }) a!: number;
  @IsInt() @Min(0) b!: number;
}
class GreetArgs {
  @IsString() name!: string;
}

class Fixture {
  @Tool({ description: 'adds' })
  add(args: AddArgs) {
    return String(args.a + args.b);
  }
  @Tool({ description: 'throws' })
  boom(): string {
    throw new Error('kaput');
  }
  @Tool({ description: 'progress and logs' })
  async chatty(ctx: Context) {
    await ctx.progress(1, 2);
    await ctx.log('debug', 'low');
    await ctx.log('warning', 'high');
    await ctx.progress(2, 2);
    return 'done';
  }
  @Tool({ description: 'structured', output: { type: 'object', properties: { n: { type: 'number' } } } })
  structured() {
    return { n: 1 };
  }
  @Prompt({ description: 'greets' })
  greet(args: GreetArgs) {
    return `Hello ${args.name}`;
  }
  @Complete({ prompt: 'greet', argument: 'name' })
  names(value: string) {
    return ['ada', 'alan', 'grace'].filter((n) => n.startsWith(value));
  }
  @Resource({ uri: 'test://r', mimeType: 'text/plain' })
  r() {
    return 'resource text';
  }
  @ResourceTemplate({ uriTemplate: 'test://items/{id}', mimeType: 'application/json' })
  item(vars: { id: string }) {
    return JSON.stringify({ id: vars.id });
  }
}

const app = makeApp([Fixture]);
let modern: MemoryClient;
let legacy: MemoryClient;
beforeAll(async () => ({ modern, legacy } = await clients(app)));

describe('every method on both eras', () => {
  test.each(['modern', 'legacy'] as const)('%s: lists, calls, prompts, resources, completion', async (era) => {
    const c = era === 'modern' ? modern : legacy;
    const tools = await c.request('tools/list');
    expect((tools.tools as { name: string }[]).map((t) => t.name)).toEqual(['add', 'boom', 'chatty', 'structured']);
    expect(tools.tools).toContainEqual({
      name: 'add',
      description: 'adds',
      inputSchema: expect.objectContaining({ type: 'object', required: ['a', 'b'] }),
    });
    expect(await c.request('tools/call', { name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({
      content: [{ type: 'text', text: '5' }],
    });
    expect(await c.request('prompts/get', { name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }],
    });
    expect((await c.request('prompts/list')).prompts).toEqual([
      { name: 'greet', description: 'greets', arguments: [{ name: 'name', required: true }] },
    ]);
    expect(await c.request('resources/read', { uri: 'test://r' })).toMatchObject({
      contents: [{ uri: 'test://r', mimeType: 'text/plain', text: 'resource text' }],
    });
    expect(await c.request('resources/read', { uri: 'test://items/42' })).toMatchObject({
      contents: [{ text: '{"id":"42"}' }],
    });
    expect((await c.request('resources/list')).resources).toEqual([
      { uri: 'test://r', name: 'r', mimeType: 'text/plain' },
    ]);
    expect((await c.request('resources/templates/list')).resourceTemplates).toEqual([
      { uriTemplate: 'test://items/{id}', name: 'item', mimeType: 'application/json' },
    ]);
    expect(
      await c.request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'name', value: 'a' },
      }),
    ).toMatchObject({
      completion: { values: ['ada', 'alan'], total: 2, hasMore: false },
    });
  });

  test('modern results carry resultType and serverInfo; lists carry cache hints; legacy ones carry neither', async () => {
    const m = await modern.request('tools/call', { name: 'add', arguments: { a: 1, b: 1 } });
    expect(m.resultType).toBe('complete');
    expect((m._meta as Record<string, unknown>)[Meta.serverInfo]).toEqual({ name: 'test-app', version: '1.0.0' });
    expect(m.ttlMs).toBeUndefined();
    for (const method of [
      'tools/list',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
      'server/discover',
    ]) {
      expect(await modern.request(method)).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    }
    expect(await modern.request('resources/read', { uri: 'test://r' })).toMatchObject({
      ttlMs: 0,
      cacheScope: 'private',
    });
    const l = await legacy.request('tools/call', { name: 'add', arguments: { a: 1, b: 1 } });
    expect(l.resultType).toBeUndefined();
    expect(l._meta).toBeUndefined();
  });

  test('tool failures and invalid arguments are isError results, not protocol errors', async () => {
    for (const c of [modern, legacy]) {
      expect(await c.request('tools/call', { name: 'boom' })).toMatchObject({
        isError: true,
        content: [{ text: 'kaput' }],
      });
      const bad = await c.request('tools/call', { name: 'add', arguments: { a: 'x', b: -1 } });
      expect(bad.isError).toBe(true);
      expect((bad.content as { text: string }[])[0]!.text).toMatch(/a must be an integer.*b must not be less than 0/);
      expect(await c.request('tools/call', { name: 'add', arguments: { a: 1, b: 1, extra: 1 } })).toMatchObject({
        isError: true,
      });
    }
  });

  test('a missing arguments key means {}', async () => {
    const r = await modern.request('tools/call', { name: 'structured' });
    expect(r).toMatchObject({ structuredContent: { n: 1 }, content: [{ type: 'text', text: '{"n":1}' }] });
  });

  test('progress needs a token; 2026 logs need a logLevel and honour it', async () => {
    modern.notifications.length = 0;
    await modern.request('tools/call', { name: 'chatty' });
    expect(modern.notifications).toEqual([]);
    await modern.request('tools/call', { name: 'chatty', _meta: { progressToken: 't', [Meta.logLevel]: 'info' } });
    expect(modern.notifications.map((n) => n.method)).toEqual([
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
    ]);
    expect(modern.notifications[1]!.params).toEqual({ level: 'warning', data: 'high' });
  });

  test('legacy logging/setLevel filters, ping answers {}', async () => {
    expect(await legacy.request('ping')).toEqual({});
    expect(await legacy.request('logging/setLevel', { level: 'debug' })).toEqual({});
    legacy.notifications.length = 0;
    await legacy.request('tools/call', { name: 'chatty' });
    expect(legacy.notifications.filter((n) => n.method === 'notifications/message')).toHaveLength(2);
    expect((await legacy.raw('logging/setLevel', { level: 'loud' })) as object).toMatchObject({
      error: { code: -32602 },
    });
  });
});

describe('errors', () => {
  test('unknown tool/prompt and bad cursor → -32602; unknown method → -32601', async () => {
    for (const c of [modern, legacy]) {
      expect(await c.raw('tools/call', { name: 'nope' })).toMatchObject({ error: { code: -32602 } });
      expect(await c.raw('prompts/get', { name: 'nope' })).toMatchObject({ error: { code: -32602 } });
      expect(await c.raw('tools/list', { cursor: 'garbage!' })).toMatchObject({ error: { code: -32602 } });
      expect(await c.raw('no/such/method')).toMatchObject({ error: { code: -32601 } });
    }
  });

  test('resource not found: -32602 with data.uri on 2026, -32002 on legacy', async () => {
    expect(await modern.raw('resources/read', { uri: 'test://missing' })).toMatchObject({
      error: { code: -32602, data: { uri: 'test://missing' } },
    });
    expect(await legacy.raw('resources/read', { uri: 'test://missing' })).toMatchObject({ error: { code: -32002 } });
  });

  test('2026 envelope: missing fields -32602, unsupported version -32022, removed methods -32601', async () => {
    const server = dispatcherOf(app);
    const io = { signal: new AbortController().signal, notify: () => undefined };
    // The status is the HTTP transport's mapping of the reply (replyStatus), as a client would see it.
    const send = async (params: Record<string, unknown> | undefined, method = 'server/discover') => {
      const reply = await server.handleModern({ jsonrpc: '2.0', id: 7, method, params }, io);
      return { ...reply, status: replyStatus(reply, 'modern') };
    };
    expect(await send(undefined)).toMatchObject({ status: 400, message: { id: 7, error: { code: -32602 } } });
    expect(await send({ _meta: { [Meta.clientCapabilities]: {} } })).toMatchObject({
      status: 400,
      message: { error: { code: -32602 } },
    });
    expect(await send({ _meta: { [Meta.protocolVersion]: '2026-07-28' } })).toMatchObject({
      status: 400,
      message: { error: { code: -32602 } },
    });
    expect(await send({ _meta: { [Meta.protocolVersion]: 'v999.0.0', [Meta.clientCapabilities]: {} } })).toMatchObject({
      status: 400,
      message: { error: { code: -32022, data: { supported: ['2026-07-28'], requested: 'v999.0.0' } } },
    });
    const meta = { _meta: { [Meta.protocolVersion]: '2026-07-28', [Meta.clientCapabilities]: {} } };
    for (const m of [
      'initialize',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
      'unknown/method',
    ]) {
      expect(await send(meta, m)).toMatchObject({ status: 404, message: { error: { code: -32601 } } });
    }
    expect(await send({ _meta: { ...meta._meta, [Meta.logLevel]: 'loud' } })).toMatchObject({
      message: { error: { code: -32602 } },
    });
    expect(
      await send({ _meta: { [Meta.protocolVersion]: '2026-07-28', [Meta.clientCapabilities]: {} } }),
    ).toMatchObject({ status: 200 });
  });

  test('the connection keeps serving after hostile input', async () => {
    const c = await MemoryClient.connect(app, { era: 'modern' });
    const hostile = [
      { name: 'add', arguments: { __proto__: { polluted: true }, a: 1, b: 2 } },
      { name: 'add', arguments: JSON.parse('{"__proto__":{"polluted":true},"a":1,"b":2}') },
      { name: 'add', arguments: [1, 2] },
      { name: 'add', arguments: 'str' },
      { name: 42 },
      { name: 'add', arguments: { a: Number.MAX_VALUE, b: 1e308 } },
    ];
    for (const params of hostile) await c.raw('tools/call', params as Record<string, unknown>);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await c.request('tools/call', { name: 'add', arguments: { a: 40, b: 2 } })).toMatchObject({
      content: [{ text: '42' }],
    });
  });
});

test('pagination follows opaque cursors', async () => {
  class Many {}
  const paged = makeApp([Many], { pageSize: 2 });
  for (let i = 0; i < 5; i++) paged.addTool({ name: `t${i}`, handler: () => 'x' });
  const c = await MemoryClient.connect(paged, { era: 'modern' });
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await c.request('tools/list', cursor ? { cursor } : {});
    names.push(...(page.tools as { name: string }[]).map((t) => t.name));
    cursor = page.nextCursor as string | undefined;
  } while (cursor);
  expect(names).toEqual(['t0', 't1', 't2', 't3', 't4']);
  expect(await c.raw('tools/list', { cursor: '' })).toMatchObject({ result: { nextCursor: expect.any(String) } });
});
