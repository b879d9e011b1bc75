/**
 * Per-client caps of legacy HTTP sessions: a session quota per principal inside maxSessions (one
 * shared anonymous bucket for clients without a principal), and a cap on server-to-client asks
 * waiting on one session. Each refusal is followed by a normal call that succeeds.
 */
import {
  ContextServerModule,
  McpApplication,
  serveHttp,
  Tool,
  Context,
  type HttpServerHandle,
} from '../../../../src';
import { silentLogger } from '../../../../src/server/core/server-logger';
import {
  EchoArgs,
  JSON_HEADERS,
  makeApp,
  RawLegacyClient,
  rawRequest,
  replyOf,
  streamingRequest,
  TestTools,
  waitFor,
} from '../../../helpers/http-fixtures';

const byHeader = ({ headers }: { headers?: Record<string, unknown> }) =>
  typeof headers?.['x-user'] === 'string' ? { id: headers['x-user'] } : undefined;

describe('sessions per principal', () => {
  let server: HttpServerHandle;
  beforeAll(async () => {
    server = await serveHttp(makeApp({ authenticate: byHeader }), {
      port: 0,
      maxSessions: 20,
      maxSessionsPerPrincipal: 2,
      maxAnonymousSessions: 3,
    });
  });
  afterAll(() => server.close({ deadlineMs: 2000 }));

  const open = async (user?: string) => {
    const c = new RawLegacyClient(server.url, '2025-11-25', user ? { 'X-User': user } : {});
    return { c, r: await c.initialize() };
  };

  test('a principal over maxSessionsPerPrincipal gets 429 naming the option; others still get sessions; DELETE frees a slot', async () => {
    const first = await open('mallory');
    expect(first.r.status).toBe(200);
    expect((await open('mallory')).r.status).toBe(200);
    const over = await open('mallory');
    expect(over.r.status).toBe(429);
    expect(over.r.json().error.message).toContain('maxSessionsPerPrincipal');
    expect(over.r.headers['mcp-session-id']).toBeUndefined();

    const alice = await open('alice');
    expect(alice.r.status).toBe(200);
    expect(
      replyOf(await alice.c.call(1, 'tools/call', { name: 'echo', arguments: { text: 'still served' } })).result
        .content[0].text,
    ).toBe('still served');

    expect((await rawRequest(server.url, { method: 'DELETE', headers: first.c.headers() })).status).toBe(200);
    expect((await open('mallory')).r.status).toBe(200);
  });

  test('clients without a principal share one bucket of maxAnonymousSessions', async () => {
    for (let i = 0; i < 3; i++) expect((await open()).r.status).toBe(200);
    const over = await open();
    expect(over.r.status).toBe(429);
    expect(over.r.json().error.message).toContain('maxAnonymousSessions');
    expect((await open('bob')).r.status).toBe(200);
  });

  test('the session options are validated', async () => {
    await expect(serveHttp(makeApp(), { port: 0, maxSessionsPerPrincipal: 0 })).rejects.toThrow(
      /maxSessionsPerPrincipal/,
    );
    await expect(serveHttp(makeApp(), { port: 0, maxAnonymousSessions: 0 })).rejects.toThrow(/maxAnonymousSessions/);
  });
});

describe('pending asks per session', () => {
  let server: HttpServerHandle;
  beforeAll(async () => {
    const app = McpApplication.create({
      name: 'asks-cap',
      version: '1.0.0',
      providers: [TestTools],
      modules: [ContextServerModule.configure({ logger: silentLogger, maxPendingAsksPerSession: 2 })],
    });
    server = await serveHttp(app, { port: 0 });
  });
  afterAll(() => server.close({ deadlineMs: 2000 }));

  test('one ask over maxPendingAsksPerSession fails (OMC_ASK_LIMIT, not sent); answering one lets the next call ask', async () => {
    const c = new RawLegacyClient(server.url);
    await c.initialize({ elicitation: {} });
    const asks: Array<{ id: string }> = [];
    const call = (id: number) =>
      streamingRequest(
        server.url,
        {
          headers: { ...JSON_HEADERS, ...c.headers() },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'greet', arguments: { text: 'x' } },
          }),
        },
        (e) => {
          if (e.method === 'elicitation/create') asks.push(e);
        },
      );
    const held = [call(1), call(2)];
    await waitFor(() => asks.length === 2);
    const refused = await call(3);
    const reply = refused.events.find((e) => e.id === 3);
    const text = JSON.stringify(reply);
    expect(reply.result.isError).toBe(true);
    expect(text).toContain('maxPendingAsksPerSession');
    expect(asks).toHaveLength(2); // the third ask was never sent

    await c.post({ jsonrpc: '2.0', id: asks[0]!.id, result: { action: 'accept', content: { name: 'Ada' } } });
    const done = await held[0]!;
    expect(done.events.find((e) => e.id === 1).result.content[0].text).toBe('Hello, Ada!');

    const again = call(4);
    await waitFor(() => asks.length === 3);
    await c.post({ jsonrpc: '2.0', id: asks[2]!.id, result: { action: 'accept', content: { name: 'Grace' } } });
    expect((await again).events.find((e) => e.id === 4).result.content[0].text).toBe('Hello, Grace!');
    await rawRequest(server.url, { method: 'DELETE', headers: c.headers() });
    await held[1];
  });
});

class Asker {
  @Tool({ description: 'Asks the client whether to keep its text (the ask carries the text)' })
  async keep(args: EchoArgs, ctx: Context) {
    return (await ctx.confirm(`Keep ${args.text}?`)) ? 'kept' : 'dropped';
  }
}

describe('pending asks in bytes (issue 31): per session, per principal', () => {
  let server: HttpServerHandle;
  let app: McpApplication;
  const KiB = 1024;
  beforeAll(async () => {
    app = McpApplication.create({
      name: 'ask-bytes',
      version: '1.0.0',
      providers: [Asker, TestTools],
      modules: [
        ContextServerModule.configure({
          logger: silentLogger,
          authenticate: byHeader as never,
          maxPendingAskBytesPerSession: 100 * KiB,
          maxPendingAskBytesPerPrincipal: 150 * KiB,
        }),
      ],
    });
    server = await serveHttp(app, { port: 0 });
  });
  afterAll(() => server.close({ deadlineMs: 2000 }));

  async function session(user: string) {
    const c = new RawLegacyClient(server.url, '2025-11-25', { 'X-User': user });
    await c.initialize({ elicitation: {} });
    const asks: Array<{ id: string }> = [];
    let next = 0;
    const call = (text: string) => {
      const id = ++next;
      const reply = streamingRequest(
        server.url,
        {
          headers: { ...JSON_HEADERS, ...c.headers() },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'keep', arguments: { text } },
          }),
        },
        (e) => {
          if (e.method === 'elicitation/create') asks.push(e);
        },
      );
      return reply.then((r) => JSON.stringify(r.events.find((e) => e.id === id)));
    };
    return { c, asks, call };
  }

  test('one session over its bytes, then one principal over its bytes, is refused naming the option; another principal is served', async () => {
    const m1 = await session('mallory');
    const held1 = m1.call('a'.repeat(60 * KiB));
    await waitFor(() => m1.asks.length === 1);
    // 60 KiB waiting: a second 60 KiB ask would pass this session's 100 KiB.
    expect(await m1.call('b'.repeat(60 * KiB))).toContain('maxPendingAskBytesPerSession');
    expect(m1.asks).toHaveLength(1); // not sent
    // A second session of the same principal: 60 + 30 KiB fit this session, but the principal's two
    // sessions would hold 150 KiB and more (each ask carries some 1.6 KiB of form beside the text).
    const m2 = await session('mallory');
    const held2 = m2.call('c'.repeat(60 * KiB));
    await waitFor(() => m2.asks.length === 1);
    expect(await m2.call('d'.repeat(30 * KiB))).toContain('maxPendingAskBytesPerPrincipal');
    expect(m2.asks).toHaveLength(1);
    // Another principal's large ask is served.
    const ada = await session('ada');
    const adaCall = ada.call('e'.repeat(90 * KiB));
    await waitFor(() => ada.asks.length === 1);
    await ada.c.post({ jsonrpc: '2.0', id: ada.asks[0]!.id, result: { action: 'accept', content: { confirm: true } } });
    expect(await adaCall).toContain('kept');
    // Answering gives the bytes back: mallory's large ask now goes out.
    await m1.c.post({ jsonrpc: '2.0', id: m1.asks[0]!.id, result: { action: 'decline' } });
    expect(await held1).toContain('dropped');
    const again = m1.call('f'.repeat(60 * KiB));
    await waitFor(() => m1.asks.length === 2);
    await m1.c.post({ jsonrpc: '2.0', id: m1.asks[1]!.id, result: { action: 'decline' } });
    await m2.c.post({ jsonrpc: '2.0', id: m2.asks[0]!.id, result: { action: 'decline' } });
    expect(await again).toContain('dropped');
    expect(await held2).toContain('dropped');
    expect(app.endpoint.settings.pendingAsks.held()).toBe(0);
  });
});
