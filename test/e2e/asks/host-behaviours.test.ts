/**
 * Each host behaviour that keeps a question from a person, against each client kind, with the
 * `deny` and `argument` fallbacks: the official v1 client (legacy), the official v2 client (2026),
 * our test client on both eras. Nothing hangs past the ask deadline; every outcome is the declared one.
 */
import 'reflect-metadata';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import {
  Context,
  ContextServerModule,
  McpApplication,
  Tool,
  connectTestClient,
  serveHttp,
  type HttpServerHandle,
} from 'onemodelcontext';
import { modernPost, replyOf } from '../../helpers/http-fixtures';

const effects = { wiped: 0, purged: 0 };

class Danger {
  @Tool({ asks: { kinds: ['confirm'], fallback: 'deny' } })
  async wipe(ctx: Context) {
    const ok = await ctx.confirm('Wipe the disk?', { key: 'wipe' });
    if (ok) return `wiped ${++effects.wiped}`;
    return `kept (${ctx.notShown.map((n) => n.reason).join(',') || 'the user said no'})`;
  }

  @Tool({ asks: { kinds: ['confirm'], fallback: 'argument' } })
  async purge(ctx: Context) {
    const ok = await ctx.confirm('Purge the cache?', { key: 'purge' });
    if (ok) return `purged ${++effects.purged}`;
    return `not purged (${ctx.notShown.map((n) => n.reason).join(',') || 'the user said no'})`;
  }

  @Tool({ asks: { kinds: ['confirm'], fallback: 'deny' } })
  async sneaky(ctx: Context) {
    const roots = await ctx.listRoots();
    return `saw ${roots.length} roots`;
  }
}

/** `minDeclineMs` high: any decline a program sends counts as instant (no clock in the assertions). */
function makeApp(minDeclineMs: number, answerDeadlineMs: number) {
  return McpApplication.create({
    name: 'danger',
    version: '1.0.0',
    providers: [Danger],
    modules: [
      ContextServerModule.configure({
        asks: { minDeclineMs, answerDeadlineMs },
        logger: { warn: () => undefined, error: () => undefined },
      }),
    ],
  });
}

type Elicit = ((message: string) => Promise<{ action: 'accept' | 'decline'; content?: object }>) | undefined;
const NEVER: Elicit = () => new Promise(() => undefined);
const DECLINE_IN_5MS: Elicit = () => new Promise((r) => setTimeout(() => r({ action: 'decline' }), 5));
const ACCEPT: Elicit = async () => ({ action: 'accept', content: { confirm: true } });

type Caller = (url: string, elicit: Elicit) => Promise<{
  call: (name: string, args?: Record<string, unknown>) => Promise<string>;
  close: () => Promise<void>;
}>;

const textOf = (r: any): string => r.content.map((c: { text?: string }) => c.text ?? '').join('');

const officialV1: Caller = async (url, elicit) => {
  const capabilities = elicit ? { elicitation: {} } : {};
  const client = new LegacyClient({ name: 'v1-host', version: '1' }, { capabilities });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (req) => elicit(req.params.message) as never);
  await client.connect(new LegacyTransport(new URL(url)));
  return {
    call: async (name, args = {}) => textOf(await client.callTool({ name, arguments: args })),
    close: () => client.close(),
  };
};

const officialV2: Caller = async (url, elicit) => {
  const client = new ModernClient(
    { name: 'v2-host', version: '1' },
    { capabilities: elicit ? { elicitation: {} } : {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  if (elicit) {
    const message = (req: { params: unknown }) => (req.params as { message: string }).message;
    client.setRequestHandler('elicitation/create', (req) => elicit(message(req)) as never);
  }
  await client.connect(new ModernTransport(new URL(url)));
  return {
    call: async (name, args = {}) => textOf(await client.callTool({ name, arguments: args })),
    close: () => client.close(),
  };
};

const ours = (era: '2026-07-28' | '2025-11-25'): Caller => async (url, elicit) => {
  const kit = await connectTestClient(
    { url },
    elicit
      ? { era, answers: { elicitation: async (p: { message: string }) => elicit(p.message) } as never }
      : { era, declare: [] },
  );
  return { call: async (name, args = {}) => (await kit.callTool(name, args)).text, close: () => kit.close() };
};

const CLIENTS: [string, Caller, boolean][] = [
  ['official v1 client (legacy)', officialV1, false],
  ['official v2 client (2026)', officialV2, true],
  ['our client, 2026-07-28', ours('2026-07-28'), true],
  ['our client, 2025-11-25', ours('2025-11-25'), false],
];

let instant: HttpServerHandle;
let human: HttpServerHandle;
beforeAll(async () => {
  instant = await serveHttp(makeApp(60_000, 300), { port: 0 });
  // An answer is awaited here: the deadline is only a safety net (no race with a busy machine).
  human = await serveHttp(makeApp(0, 60_000), { port: 0 });
});
afterAll(async () => {
  await instant.close({ deadlineMs: 1000 });
  await human.close({ deadlineMs: 1000 });
});

describe.each(CLIENTS)('%s', (_name, connect, modern) => {
  test('no elicitation capability: deny declines with the reason; argument reads the confirmation', async () => {
    const c = await connect(instant.url, undefined);
    try {
      expect(await c.call('wipe')).toBe('kept (no-capability)');
      expect(await c.call('purge')).toBe('not purged (no-capability)');
      const before = effects.purged;
      expect(await c.call('purge', { userConfirmed: true })).toBe(`purged ${before + 1}`);
    } finally {
      await c.close();
    }
  });

  test('auto-declines in 5 ms: taken as not shown, and denied', async () => {
    const c = await connect(instant.url, DECLINE_IN_5MS);
    try {
      expect(await c.call('wipe')).toBe('kept (instant-decline)');
      expect(await c.call('purge', { userConfirmed: true })).toBe(`purged ${effects.purged}`);
    } finally {
      await c.close();
    }
  });

  test('a decline slower than the threshold is the user saying no; an accept goes through', async () => {
    const c = await connect(human.url, DECLINE_IN_5MS);
    try {
      expect(await c.call('wipe')).toBe('kept (the user said no)');
    } finally {
      await c.close();
    }
    const yes = await connect(human.url, ACCEPT);
    try {
      expect(await yes.call('wipe')).toMatch(/^wiped \d+$/);
    } finally {
      await yes.close();
    }
  });

  if (!modern) {
    test('never answers: the ask deadline passes, the question is taken as not shown, and denied', async () => {
      const c = await connect(instant.url, NEVER);
      try {
        expect(await c.call('wipe')).toBe('kept (no-answer)');
      } finally {
        await c.close();
      }
    });
  }
});

test('an ask the decorator did not declare is a clear error (both eras)', async () => {
  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    const kit = await connectTestClient({ url: instant.url }, { era, answers: { roots: [] } });
    try {
      const run = await kit.callTool('sneaky', {});
      expect(run.result.isError).toBe(true);
      expect(run.text).toContain('asked roots but its decorator declares asks.kinds ["confirm"]');
    } finally {
      await kit.close();
    }
  }
});

describe('2026 hosts that never answer or drop input_required', () => {
  test('the server answers input_required at once and holds nothing; the action never ran', async () => {
    const before = effects.wiped;
    const meta = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const reply = replyOf(await modernPost(instant.url, 1, 'tools/call', { name: 'wipe', arguments: {}, _meta: meta }));
    expect(reply.result.resultType).toBe('input_required');
    expect(Object.keys(reply.result.inputRequests)).toEqual(['wipe']);
    // The client drops it (or never answers): nothing waits on the server, nothing ran.
    expect(effects.wiped).toBe(before);
  });
});
