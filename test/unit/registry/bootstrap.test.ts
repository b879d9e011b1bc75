import { IsString } from 'class-validator';
import {
  Context,
  FrameworkError,
  injectable,
  McpApplication,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
  inject,
} from '../../../src';
import { MetadataKeys } from '../../../src/metadata/keys';
import { MetadataStore } from '../../../src/metadata/store';
import { makeApp, MemoryClient } from '../../helpers/apps';

class Args {
  @IsString() text!: string;
}

function expectStartupError(providers: Function[], code: string, ...fragments: string[]) {
  let error: unknown;
  try {
    makeApp(providers);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(FrameworkError);
  expect((error as FrameworkError).code).toBe(code);
  for (const f of fragments) expect((error as Error).message).toContain(f);
}

describe('decorators record plain metadata', () => {
  class Recorded {
    @Tool({ name: 'custom', description: 'd', annotations: { readOnlyHint: true } })
    a(args: Args) {
      return args.text;
    }
    @Prompt({ description: 'p' })
    b() {
      return 'x';
    }
    @Resource({ uri: 'test://x' })
    c() {
      return 'x';
    }
    @ResourceTemplate({ uriTemplate: 'test://{id}' })
    d() {
      return 'x';
    }
  }

  test('under namespaced symbols on the class, frozen, nothing else', () => {
    expect(Reflect.getOwnMetadata(MetadataKeys.tools, Recorded)).toEqual([
      { method: 'a', options: { name: 'custom', description: 'd', annotations: { readOnlyHint: true } } },
    ]);
    expect(Object.isFrozen(MetadataStore.tools(Recorded)[0]!.options)).toBe(true);
    expect(MetadataStore.prompts(Recorded)).toEqual([{ method: 'b', options: { description: 'p' } }]);
    expect(MetadataStore.resources(Recorded)).toEqual([{ method: 'c', options: { uri: 'test://x' } }]);
    expect(MetadataStore.resourceTemplates(Recorded)).toEqual([
      { method: 'd', options: { uriTemplate: 'test://{id}' } },
    ]);
    expect(MetadataStore.paramTypes(Recorded, 'a')).toEqual([Args]);
  });

  test('subclasses inherit and may override a method entry', () => {
    class Child extends Recorded {
      @Tool({ name: 'overridden' })
      override a(args: Args) {
        return args.text;
      }
    }
    const tools = MetadataStore.tools(Child);
    expect(tools.map((t) => t.options.name)).toEqual(['overridden']);
  });
});

describe('start-up validation names the class and method', () => {
  test('duplicate tool names', () => {
    class A {
      @Tool({ name: 'same' }) x() {
        return '';
      }
    }
    class B {
      @Tool({ name: 'same' }) y() {
        return '';
      }
    }
    expectStartupError([A, B], 'OMC_DUPLICATE_NAME', 'A.x', 'B.y');
  });

  test.each(['', 'has space', 'slash/name', 'x'.repeat(129), 'ümlaut'])('invalid name %p', (name) => {
    class Bad {
      @Tool({ name }) m() {
        return '';
      }
    }
    expectStartupError([Bad], 'OMC_INVALID_NAME', 'Bad.m');
  });

  test('an interface-typed argument cannot give a schema', () => {
    class Untyped {
      @Tool() m(args: { text: string }) {
        return args.text;
      }
    }
    expectStartupError([Untyped], 'OMC_SCHEMA_UNSUPPORTED', 'Untyped.m');
  });

  test('missing decorator metadata is detected', () => {
    class NoMeta {
      m(_args: unknown) {
        return '';
      }
    }
    MetadataStore.addTool(NoMeta.prototype, { method: 'm', options: {} });
    expectStartupError([NoMeta], 'OMC_DECORATOR_METADATA_MISSING', 'NoMeta.m', 'emitDecoratorMetadata');
  });

  test('@Resource needs a fixed URI; templates must parse', () => {
    class R {
      @Resource({ uri: 'test://{id}' }) m() {
        return '';
      }
    }
    expectStartupError([R], 'OMC_INVALID_DEFINITION', 'R.m');
    class T {
      @ResourceTemplate({ uriTemplate: 'test://{id' }) m() {
        return '';
      }
    }
    expectStartupError([T], 'OMC_INVALID_URI_TEMPLATE');
  });

  test('bad options fail at configure time with a readable list', () => {
    expect(() => makeApp([], { pageSize: 0, legacyAskTimeoutMs: 'soon' })).toThrow(
      /pageSize: must not be less than 1 \(got 0\)/,
    );
    expect(() => makeApp([], { pageSize: 0, legacyAskTimeoutMs: 'soon' })).toThrow(
      /legacyAskTimeoutMs: must be an integer/,
    );
    expect(() => makeApp([], { requestStateKey: 'short' })).toThrow(FrameworkError);
  });
});

describe('request-scoped DI', () => {
  @injectable()
  class Clock {
    readonly created = Math.random();
  }
  @injectable()
  class Scoped {
    constructor(
      readonly clock: Clock,
      readonly ctx: Context,
    ) {}
    @Tool({ description: 'who' })
    who() {
      return `${this.ctx.requestId}:${this.clock.created}`;
    }
  }
  const TOKEN = Symbol('greeting');
  @injectable()
  class WithToken {
    constructor(@inject(TOKEN) private readonly greeting: string) {}
    @Tool() hello(ctx: Context) {
      return `${this.greeting} ${ctx.era}`;
    }
  }

  test('constructor injection gets this request’s Context and singleton services', async () => {
    const app = makeApp([Clock, Scoped]);
    const c = await MemoryClient.connect(app, { era: 'modern' });
    const t1 = ((await c.request('tools/call', { name: 'who' })).content as { text: string }[])[0]!.text;
    const t2 = ((await c.request('tools/call', { name: 'who' })).content as { text: string }[])[0]!.text;
    const [id1, clock1] = t1.split(':');
    const [id2, clock2] = t2.split(':');
    expect(id1).not.toBe(id2);
    expect(clock1).toBe(clock2);
  });

  test('provider objects register values', async () => {
    const app = McpApplication.create({
      name: 'x',
      version: '1',
      providers: [WithToken, { provide: TOKEN, useValue: 'hi' }],
    });
    const c = await MemoryClient.connect(app, { era: 'legacy' });
    expect(await c.request('tools/call', { name: 'hello' })).toMatchObject({ content: [{ text: 'hi legacy' }] });
  });
});

describe('run-time registration', () => {
  test('add and remove, with list-changed notifications on both eras', async () => {
    class Empty {}
    const app = makeApp([Empty]);
    const legacy = await MemoryClient.connect(app, { era: 'legacy' });
    const modern = await MemoryClient.connect(app, { era: 'modern' });
    // The listen request stays open: its response only comes when the stream ends.
    void modern.raw('subscriptions/listen', { notifications: { toolsListChanged: true } });
    app.addTool({ name: 'late', description: 'added later', input: Args, handler: (a: Args) => a.text.toUpperCase() });
    expect(await modern.request('tools/call', { name: 'late', arguments: { text: 'x' } })).toMatchObject({
      content: [{ text: 'X' }],
    });
    expect(() => app.addTool({ name: 'late', handler: () => '' })).toThrow(/Duplicate tool "late"/);
    expect(app.removeTool('late')).toBe(true);
    expect(await modern.raw('tools/call', { name: 'late', arguments: { text: 'x' } })).toMatchObject({
      error: { code: -32602 },
    });
    expect(legacy.notifications.filter((n) => n.method === 'notifications/tools/list_changed')).toHaveLength(2);
    const tagged = modern.notifications.filter((n) => n.method === 'notifications/tools/list_changed');
    expect(tagged).toHaveLength(2);
    expect(modern.notifications[0]!.method).toBe('notifications/subscriptions/acknowledged');
    expect(tagged[0]!.params!._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': expect.anything() });
  });

  test('a listen stream honours its filter and resource subscriptions', async () => {
    class Empty {}
    const app = makeApp([Empty]);
    const modern = await MemoryClient.connect(app, { era: 'modern' });
    // The listen request stays open: its response only comes when the stream ends.
    void modern.raw('subscriptions/listen', {
      notifications: { promptsListChanged: true, resourceSubscriptions: ['test://a/'] },
    });
    app.addTool({ name: 'ignored', handler: () => '' });
    app.notifyResourceUpdated('test://a/b');
    app.notifyResourceUpdated('test://ab');
    expect(modern.notifications.map((n) => [n.method, n.params?.uri])).toEqual([
      ['notifications/subscriptions/acknowledged', undefined],
      ['notifications/resources/updated', 'test://a/b'],
    ]);
  });
});
