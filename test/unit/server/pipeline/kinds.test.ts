/**
 * Issue 16: each kind (guard, interceptor, filter) on each handler kind (tool, prompt, resource,
 * template), class-level and method-level and app-wide, on both eras; request-scoped pipeline
 * classes get the request's Context.
 */
import { injectable } from 'tsyringe';
import {
  Context,
  McpApplication,
  ContextServerModule,
  Prompt,
  ProtocolError,
  Resource,
  ResourceTemplate,
  Tool,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type CallNext,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type Interceptor,
} from '../../../../src';
import { silentLogger } from '../../../../src/server/core/server-logger';
import { MemoryClient } from '../../../helpers/apps';

const log: string[] = [];

/** Lets in principals whose `roles` include the role. */
class RoleGuard implements CanActivate {
  constructor(private readonly role: string) {}
  canActivate(ctx: ExecutionContext): boolean {
    log.push(`guard:${ctx.kind}:${ctx.phase}`);
    return ((ctx.principal?.roles as string[] | undefined) ?? []).includes(this.role);
  }
}

class Upper implements Interceptor {
  async intercept(ctx: ExecutionContext, next: CallNext) {
    log.push(`upper:${ctx.kind}:${ctx.target}`);
    const value = await next();
    return typeof value === 'string' ? value.toUpperCase() : value;
  }
}

class Outer implements Interceptor {
  async intercept(_ctx: ExecutionContext, next: CallNext) {
    log.push('outer:before');
    const value = await next();
    log.push('outer:after');
    return value;
  }
}

class Oops extends Error {}

class OopsAsText implements ExceptionFilter {
  catch(error: unknown) {
    if (error instanceof Oops) return `recovered: ${error.message}`;
    throw error;
  }
}

class OopsAsProtocol implements ExceptionFilter {
  catch(error: unknown) {
    if (error instanceof Oops) throw new ProtocolError(-32001, `mapped: ${error.message}`);
    throw error;
  }
}

/** Request-scoped: built per call with the request's Context. */
@injectable()
class ContextAware implements Interceptor {
  constructor(private readonly ctx: Context) {}
  async intercept(_ectx: ExecutionContext, next: CallNext) {
    log.push(`context:${this.ctx.method}:${this.ctx.principal?.id}`);
    return next();
  }
}

@UseGuards(new RoleGuard('staff'))
@UseInterceptors(Upper)
class Catalogue {
  @Tool({ description: 'echo' })
  @UseInterceptors(ContextAware)
  shout() {
    return 'hello';
  }
  @Tool({ description: 'fails' })
  @UseFilters(OopsAsText)
  failing(): string {
    throw new Oops('tool');
  }
  @Prompt({ description: 'a prompt' })
  greeting() {
    return 'hi there';
  }
  @Prompt({ description: 'a failing prompt' })
  @UseFilters(OopsAsProtocol)
  broken(): string {
    throw new Oops('prompt');
  }
  @Resource({ uri: 'doc://readme', mimeType: 'text/plain' })
  readme() {
    return 'read me';
  }
  @ResourceTemplate({ uriTemplate: 'doc://pages/{page}', mimeType: 'text/plain' })
  @UseGuards(new RoleGuard('editor'))
  page({ page }: { page: string }) {
    return `page ${page}`;
  }
}

class Public {
  @Tool({ description: 'open to all' })
  open() {
    return 'open';
  }
}

const app = McpApplication.create({
  name: 'kinds',
  version: '1.0.0',
  providers: [Catalogue, Public],
  interceptors: [Outer],
  modules: [ContextServerModule.configure({ logger: silentLogger })],
});

const staff = { id: 'sam', roles: ['staff'] };
const editor = { id: 'eve', roles: ['staff', 'editor'] };
const guest = { id: 'gus', roles: [] };

beforeEach(() => {
  log.length = 0;
});

describe.each(['modern', 'legacy'] as const)('%s', (era) => {
  const as = (principal: { id: string; roles: string[] }) => MemoryClient.connect(app, { era, principal });

  test('tool: class guard, app-wide then class then method interceptors, request-scoped one with Context', async () => {
    const c = await as(staff);
    const r = await c.request('tools/call', { name: 'shout' });
    expect(r.content).toEqual([{ type: 'text', text: 'HELLO' }]);
    expect(log).toEqual([
      'guard:tool:call',
      'outer:before',
      'upper:tool:shout',
      'context:tools/call:sam',
      'outer:after',
    ]);
  });

  test('tool: a filter maps an application error to a result', async () => {
    const c = await as(staff);
    const r = await c.request('tools/call', { name: 'failing' });
    expect(r.content).toEqual([{ type: 'text', text: 'recovered: tool' }]); // filters sit outside the interceptors
  });

  test('prompt: guarded, intercepted; a filter maps an error to a protocol error', async () => {
    const c = await as(staff);
    const r = await c.request('prompts/get', { name: 'greeting' });
    expect(JSON.stringify(r.messages)).toContain('HI THERE');
    const broken = await c.raw('prompts/get', { name: 'broken' });
    expect(broken).toMatchObject({ error: { code: -32001, message: 'mapped: prompt' } });
    const hidden = await (await as(guest)).raw('prompts/get', { name: 'greeting' });
    expect(hidden).toMatchObject({ error: { code: -32602, message: 'Unknown prompt: greeting' } });
  });

  test('resource and template: guarded per caller, same error as an unknown URI', async () => {
    const c = await as(staff);
    const r = await c.request('resources/read', { uri: 'doc://readme' });
    expect(r.contents).toMatchObject([{ text: 'READ ME' }]);
    const denied = await c.raw('resources/read', { uri: 'doc://pages/1' });
    const missing = await c.raw('resources/read', { uri: 'doc://nothing' });
    const strip = (m: unknown) => {
      const e = (m as { error: { code: number; message: string; data?: { uri?: string } } }).error;
      return { code: e.code, message: e.message.replace(/doc:\S+/, 'URI'), uri: e.data?.uri ? 'URI' : undefined };
    };
    expect(strip(denied)).toEqual(strip(missing));
    const ok = await (await as(editor)).request('resources/read', { uri: 'doc://pages/1' });
    expect(ok.contents).toMatchObject([{ text: 'PAGE 1' }]);
  });

  test('lists: each caller sees what its guards allow', async () => {
    const names = async (principal: { id: string; roles: string[] }) => {
      const c = await as(principal);
      const tools = (await c.request('tools/list')).tools as { name: string }[];
      const prompts = (await c.request('prompts/list')).prompts as { name: string }[];
      const resources = (await c.request('resources/list')).resources as { uri: string }[];
      const templates = (await c.request('resources/templates/list')).resourceTemplates as { uriTemplate: string }[];
      return [
        ...tools.map((t) => t.name),
        ...prompts.map((p) => p.name),
        ...resources.map((r) => r.uri),
        ...templates.map((t) => t.uriTemplate),
      ];
    };
    expect(await names(guest)).toEqual(['open']);
    expect(await names(staff)).toEqual(['shout', 'failing', 'open', 'greeting', 'broken', 'doc://readme']);
    expect(await names(editor)).toContain('doc://pages/{page}');
  });
});

const publicLists = ContextServerModule.configure({
  logger: silentLogger,
  listCache: { cacheScope: 'public', ttlMs: 1000 },
});

test('a list of a guarded kind is private on 2026 even when listCache says public', async () => {
  const shared = McpApplication.create({
    name: 'cache',
    version: '1.0.0',
    providers: [Catalogue, Public],
    modules: [publicLists],
  });
  const c = await MemoryClient.connect(shared, { era: 'modern', principal: staff });
  expect((await c.request('tools/list')).cacheScope).toBe('private');
  expect((await c.request('resources/read', { uri: 'doc://readme' })).cacheScope).toBe('private');
  const plain = McpApplication.create({
    name: 'cache2',
    version: '1.0.0',
    providers: [Public],
    modules: [publicLists],
  });
  const p = await MemoryClient.connect(plain, { era: 'modern' });
  expect((await p.request('tools/list')).cacheScope).toBe('public');
});

test('pagination stays per caller: cursors walk the caller’s own list', async () => {
  const paged = McpApplication.create({
    name: 'paged',
    version: '1.0.0',
    providers: [Catalogue, Public],
    modules: [ContextServerModule.configure({ logger: silentLogger, pageSize: 1 })],
  });
  const walk = async (principal: { id: string; roles: string[] }) => {
    const c = await MemoryClient.connect(paged, { era: 'modern', principal });
    const seen: string[] = [];
    let cursor: unknown;
    do {
      const page = await c.request('tools/list', cursor ? { cursor } : {});
      seen.push(...(page.tools as { name: string }[]).map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    return seen;
  };
  expect(await walk(guest)).toEqual(['open']);
  expect(await walk(staff)).toEqual(['shout', 'failing', 'open']);
});

describe.each(['modern', 'legacy'] as const)('%s: completion/complete', (era) => {
  test('a hidden prompt is unknown, a hidden template completes nothing', async () => {
    const guest = await MemoryClient.connect(app, { era, principal: { id: 'gus', roles: [] } });
    const prompt = await guest.raw('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greeting' },
      argument: { name: 'x', value: '' },
    });
    expect(prompt).toMatchObject({ error: { code: -32602, message: 'Unknown prompt: greeting' } });
    const template = await guest.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'doc://pages/{page}' },
      argument: { name: 'page', value: '' },
    });
    expect(template).toMatchObject({ completion: { values: [] } });
    const staffer = await MemoryClient.connect(app, { era, principal: staff });
    expect(
      await staffer.request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'greeting' },
        argument: { name: 'x', value: '' },
      }),
    ).toMatchObject({ completion: { values: [] } });
  });
});

test('legacy resources/subscribe: a hidden resource is not found', async () => {
  const guest = await MemoryClient.connect(app, { era: 'legacy', principal: { id: 'gus', roles: [] } });
  const hidden = await guest.raw('resources/subscribe', { uri: 'doc://readme' });
  const missing = await guest.raw('resources/subscribe', { uri: 'doc://missing' });
  expect(hidden).toMatchObject({ error: { code: -32002, message: 'Resource not found: doc://readme' } });
  expect(missing).toMatchObject({ error: { code: -32002 } });
  const staffer = await MemoryClient.connect(app, { era: 'legacy', principal: staff });
  expect(await staffer.request('resources/subscribe', { uri: 'doc://readme' })).toEqual({});
});
