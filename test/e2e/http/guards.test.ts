/**
 * Issue 16 end to end: the official v2 client (2026-07-28, rounds driven by the client) and the
 * official v1 client (2025-11-25 session, real elicitation requests) over HTTP against an app with
 * guards, interceptors and a rate limit; principals come from `authenticate` (a bearer name).
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Context,
  ContextServerModule,
  McpApplication,
  RateLimit,
  Tool,
  UseGuards,
  UseInterceptors,
  type CallNext,
  type CanActivate,
  type ExecutionContext,
  type Interceptor,
} from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { trackProcessFaults } from '../../helpers/http-fixtures';

const ROLES: Record<string, string[]> = { ann: ['admin'], gus: [] };
const seen = { guards: 0, audits: [] as string[], handler: 0 };

class AdminOnly implements CanActivate {
  canActivate(ctx: ExecutionContext) {
    if (ctx.phase === 'call') seen.guards++;
    return (ctx.principal?.roles as string[] | undefined)?.includes('admin') === true;
  }
}

class Audit implements Interceptor {
  readonly runs = 'completion';
  async intercept(ctx: ExecutionContext, next: CallNext) {
    const value = await next();
    seen.audits.push(`${ctx.principal?.id}:${ctx.target}:${ctx.era}:${ctx.flow?.round}`);
    return value;
  }
}

class Admin {
  @Tool({ description: 'asks twice, admins only' })
  @UseGuards(AdminOnly)
  @UseInterceptors(Audit)
  async purge(ctx: Context) {
    seen.handler++;
    const sure = await ctx.confirm('Purge the cache?', { key: 'sure' });
    const really = sure && (await ctx.confirm('Really?', { key: 'really' }));
    return really ? 'purged' : 'kept';
  }
  @Tool({ description: 'one call per minute per caller' })
  @UseGuards(RateLimit({ capacity: 1, refillPerSecond: 1 / 60 }))
  rare() {
    return 'ok';
  }
  @Tool({ description: 'open' })
  hello() {
    return 'hello';
  }
}

let server: HttpServerHandle;
const faults = trackProcessFaults();

beforeAll(async () => {
  const app = McpApplication.create({
    name: 'guards-e2e',
    version: '1.0.0',
    providers: [Admin],
    modules: [
      ContextServerModule.configure({
        logger: silentLogger,
        authenticate: ({ headers }) => {
          const name = String(headers?.authorization ?? '').replace(/^Bearer /, '');
          return name in ROLES ? { id: name, roles: ROLES[name] } : undefined;
        },
      }),
    ],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(async () => {
  await server.close({ deadlineMs: 2000 });
  faults.stop();
  expect(faults.faults).toEqual([]);
});
beforeEach(() => {
  seen.guards = 0;
  seen.audits = [];
  seen.handler = 0;
});

const headers = (user: string) => ({ requestInit: { headers: { authorization: `Bearer ${user}` } } });
const text = (r: unknown) => (r as { content: Array<{ text?: string }> }).content[0]?.text;
const yes = { action: 'accept' as const, content: { confirm: true } };

describe('official v2 client, 2026-07-28', () => {
  async function connect(user: string): Promise<ModernClient> {
    const client = new ModernClient(
      { name: 'v2-guards', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => yes);
    await client.connect(new ModernTransport(new URL(server.url), headers(user)));
    return client;
  }

  test('an admin sees and runs the guarded tool: a guard per round, one audit for the flow', async () => {
    const client = await connect('ann');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['purge', 'rare', 'hello']);
    expect(text(await client.callTool({ name: 'purge', arguments: {} }))).toBe('purged');
    expect(seen.guards).toBe(3);
    expect(seen.handler).toBe(3);
    expect(seen.audits).toEqual(['ann:purge:modern:3']);
    await client.close();
  });

  test('a refused caller never sees it, gets the unknown-tool error, never reaches the handler', async () => {
    const client = await connect('gus');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['rare', 'hello']);
    const refused = await client.callTool({ name: 'purge', arguments: {} }).catch((e: unknown) => e);
    const unknown = await client.callTool({ name: 'nope', arguments: {} }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: purge') });
    expect(unknown).toMatchObject({ code: -32602 });
    expect(seen.handler).toBe(0);
    await client.close();
  });

  test('the rate limit answers a clear error with when to retry', async () => {
    const client = await connect('gus');
    expect(text(await client.callTool({ name: 'rare', arguments: {} }))).toBe('ok');
    const limited = await client.callTool({ name: 'rare', arguments: {} }).catch((e: unknown) => e);
    expect(limited).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/Rate limit exceeded for tool rare: retry in \d+ s/),
    });
    await client.close();
  });
});

describe('official v1 client, 2025-11-25 session', () => {
  async function connect(user: string): Promise<LegacyClient> {
    const client = new LegacyClient({ name: 'v1-guards', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => yes);
    await client.connect(new LegacyTransport(new URL(server.url), headers(user)));
    return client;
  }

  test('an admin runs the guarded tool in one round: one guard, one audit', async () => {
    const client = await connect('ann');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['purge', 'rare', 'hello']);
    expect(text(await client.callTool({ name: 'purge', arguments: {} }))).toBe('purged');
    expect(seen.guards).toBe(1);
    expect(seen.handler).toBe(1);
    expect(seen.audits).toEqual(['ann:purge:legacy:1']);
    await client.close();
  });

  test('a refused caller gets the unknown-tool error and does not see the tool', async () => {
    const client = await connect('gus');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['rare', 'hello']);
    const refused = await client.callTool({ name: 'purge', arguments: {} }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: purge') });
    expect(seen.handler).toBe(0);
    await client.close();
  });

  test('an anonymous caller is refused too', async () => {
    const client = await connect('nobody');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['rare', 'hello']);
    await client.close();
  });
});
