/**
 * The low-level path (InputRequired with explicit requests and/or the handler's own state) over
 * real HTTP: the official v2 client on 2026-07-28, the official v1 client on a 2025-11-25
 * session (the framework asks on the held connection and runs the handler again), and our client.
 */
import { randomBytes } from 'node:crypto';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Context,
  ContextClient,
  ContextServerModule,
  FrameworkError,
  InputRequired,
  InputRequests,
  McpApplication,
  Tool,
} from '../../../src';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { silentLogger } from '../../../src/server/core/server-logger';
import { modernPost, replyOf } from '../../helpers/http-fixtures';

const seen = { runs: 0 };

class LowLevel {
  @Tool({ description: 'asks with an explicit request and keeps its own state' })
  transfer(ctx: Context) {
    seen.runs++;
    if (ctx.requestState === 'asked-once') {
      const answer = ctx.inputResponses?.ok as { action?: string; content?: { confirm?: boolean } } | undefined;
      return answer?.action === 'accept' && answer.content?.confirm === true ? 'transferred' : 'cancelled';
    }
    throw new InputRequired({
      inputRequests: { ok: InputRequests.confirm('Transfer 10 EUR?') },
      requestState: 'asked-once',
    });
  }

  @Tool({ description: 'sheds load: state-only results, returned, until the third run' })
  shed(ctx: Context) {
    const n = Number(ctx.requestState ?? '0');
    if (n < 2) return new InputRequired({ requestState: String(n + 1) });
    return `served after ${n} retries`;
  }

  @Tool({ description: 'never satisfied' })
  forever() {
    seen.runs++;
    throw new InputRequired({ requestState: 'again' });
  }

  @Tool({ description: 'reports isMrtrSupported' })
  mrtr(ctx: Context) {
    return String(ctx.isMrtrSupported);
  }
}

let server: HttpServerHandle;
beforeAll(async () => {
  const app = McpApplication.create({
    name: 'low-level',
    version: '1.0.0',
    providers: [LowLevel],
    modules: [
      ContextServerModule.configure({
        logger: silentLogger,
        requestStateKey: randomBytes(32),
        pauseMs: 1,
        legacyMaxInputRounds: 3,
      }),
    ],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close({ deadlineMs: 1000 }));

const text = (r: unknown) => (r as { content: Array<{ text?: string }> }).content[0]?.text;

test('both absent is an error at the throw site', () => {
  expect(() => new InputRequired({})).toThrow(FrameworkError);
  expect(() => new InputRequired({ inputRequests: {} })).toThrow(/inputRequests, a requestState string, or both/);
});

test('raw 2026: the handler state travels sealed, and a tampered token is refused', async () => {
  const meta = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  const r1 = replyOf(await modernPost(server.url, 1, 'tools/call', { name: 'transfer', arguments: {}, _meta: meta }));
  expect(r1.result.resultType).toBe('input_required');
  expect(r1.result.inputRequests.ok.method).toBe('elicitation/create');
  expect(r1.result.requestState).toMatch(/^v1\./);
  expect(r1.result.requestState).not.toContain('asked-once');
  const answer = { ok: { action: 'accept', content: { confirm: true } } };
  const bad = r1.result.requestState.slice(0, -2) + (r1.result.requestState.endsWith('A') ? 'BB' : 'AA');
  const refused = replyOf(
    await modernPost(server.url, 2, 'tools/call', {
      name: 'transfer',
      arguments: {},
      requestState: bad,
      inputResponses: answer,
      _meta: meta,
    }),
  );
  expect(refused.error.code).toBe(-32602);
  const done = replyOf(
    await modernPost(server.url, 3, 'tools/call', {
      name: 'transfer',
      arguments: {},
      requestState: r1.result.requestState,
      inputResponses: answer,
      _meta: meta,
    }),
  );
  expect(text(done.result)).toBe('transferred');
  // A client that lacks the capability an explicit request needs is told so.
  const noCaps = replyOf(await modernPost(server.url, 4, 'tools/call', { name: 'transfer', arguments: {} }));
  expect(noCaps.error).toBeDefined();
});

describe('official v2 client (2026-07-28)', () => {
  let client: ModernClient;
  beforeAll(async () => {
    client = new ModernClient(
      { name: 'v2-low', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept' as const,
      content: { confirm: true } as Record<string, boolean>,
    }));
    await client.connect(new ModernTransport(new URL(server.url)));
  });
  afterAll(() => client.close());

  test('answers the explicit request and completes', async () => {
    expect(text(await client.callTool({ name: 'transfer', arguments: {} }))).toBe('transferred');
  });
  test('retries a requestState-only result (load shedding)', async () => {
    expect(text(await client.callTool({ name: 'shed', arguments: {} }))).toBe('served after 2 retries');
  });
  test('isMrtrSupported is true', async () => {
    expect(text(await client.callTool({ name: 'mrtr', arguments: {} }))).toBe('true');
  });
});

describe('official v1 client (2025-11-25 session)', () => {
  let client: LegacyClient;
  let transport: LegacyTransport;
  let asked: string[] = [];
  beforeAll(async () => {
    client = new LegacyClient({ name: 'v1-low', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return { action: 'accept' as const, content: { confirm: true } };
    });
    transport = new LegacyTransport(new URL(server.url));
    await client.connect(transport);
  });
  afterAll(async () => {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  });

  test('the framework sends the explicit request on the held connection and runs the handler again', async () => {
    asked = [];
    seen.runs = 0;
    expect(text(await client.callTool({ name: 'transfer', arguments: {} }))).toBe('transferred');
    expect(asked).toEqual(['Transfer 10 EUR?']);
    expect(seen.runs).toBe(2);
  });
  test('a state-only result waits and runs again', async () => {
    expect(text(await client.callTool({ name: 'shed', arguments: {} }))).toBe('served after 2 retries');
  });
  test('legacyMaxInputRounds stops a handler that never completes; the next call works', async () => {
    seen.runs = 0;
    await expect(client.callTool({ name: 'forever', arguments: {} })).rejects.toThrow(/legacyMaxInputRounds \(3\)/);
    expect(seen.runs).toBe(4);
    expect(text(await client.callTool({ name: 'mrtr', arguments: {} }))).toBe('false');
  });
  test('isMrtrSupported is false', async () => {
    expect(text(await client.callTool({ name: 'mrtr', arguments: {} }))).toBe('false');
  });
});

describe.each(['2026-07-28', '2025-11-25'] as const)('our client, %s', (protocolVersion) => {
  test('explicit requests and state-only results are honoured', async () => {
    const client = await ContextClient.connect(
      { url: server.url },
      { protocolVersion, elicitation: async () => ({ action: 'accept', content: { confirm: true } }) },
    );
    try {
      expect(text(await client.callTool('transfer'))).toBe('transferred');
      expect(text(await client.callTool('shed'))).toBe('served after 2 retries');
    } finally {
      await client.close();
    }
  });
});
