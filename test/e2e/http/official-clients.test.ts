/**
 * Peer clients against serveHttp: the official v2 client (2026-07-28, MRTR driven by the client)
 * and the official v1 client (2025-11-25 session, SSE, real server-to-client requests, resumption).
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { makeApp, trackProcessFaults, waitFor } from '../../helpers/http-fixtures';

let server: HttpServerHandle;
let app: ReturnType<typeof makeApp>;
const faults = trackProcessFaults();

beforeAll(async () => {
  app = makeApp();
  server = await serveHttp(app, { port: 0, sseRetryMs: 50 });
});
afterAll(async () => {
  await server.close({ deadlineMs: 2000 });
  faults.stop();
  expect(faults.faults).toEqual([]);
});

const text = (r: unknown) => ((r as { content: Array<{ text?: string }> }).content)[0]?.text;

describe('official v2 client, 2026-07-28', () => {
  let client: ModernClient;
  beforeAll(async () => {
    client = new ModernClient(
      { name: 'v2-e2e', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async (req) => {
      const message = (req.params as { message: string }).message;
      const accept = (content: Record<string, string | boolean>) => ({ action: 'accept' as const, content });
      return message.includes('wipe') ? accept({ confirm: true }) : accept({ name: 'Modern Ada' });
    });
    await client.connect(new ModernTransport(new URL(server.url)));
  });
  afterAll(async () => {
    await client.close();
  });

  test('lists and calls tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'slow', 'greet', 'wipe', 'regional']));
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'hello 2026' } }))).toBe('hello 2026');
  });

  test('progress notifications arrive on the request stream', async () => {
    const seen: number[] = [];
    const r = await client.callTool(
      { name: 'slow', arguments: { steps: 3 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(text(r)).toBe('done 3');
    expect(seen).toEqual([1, 2, 3]);
  });

  test('input_required rounds are completed by the client (elicit and confirm)', async () => {
    expect(text(await client.callTool({ name: 'greet', arguments: { text: 'x' } }))).toBe('Hello, Modern Ada!');
    const wiped = await client.callTool({ name: 'wipe', arguments: { text: 'x' } });
    expect(text(wiped)).toBe('wiped');
  });

  test('x-mcp-header arguments are mirrored by the client and accepted', async () => {
    expect(
      text(await client.callTool({ name: 'regional', arguments: { region: 'eu-west', level: 3, flag: true } })),
    ).toBe('region=eu-west');
  });

  test('subscriptions/listen delivers tools/list_changed after addTool', async () => {
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    const sub = await client.listen({ toolsListChanged: true });
    expect(sub.honoredFilter).toMatchObject({ toolsListChanged: true });
    app.addTool({ name: 'added_for_v2', description: 'new', handler: () => 'new' });
    await waitFor(() => changed > 0);
    await sub.close();
  });
});

describe('official v1 client, 2025-11-25 session', () => {
  let client: LegacyClient;
  let transport: LegacyTransport;
  let elicitations = 0;
  let listChanged = 0;
  beforeAll(async () => {
    client = new LegacyClient({ name: 'v1-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      elicitations++;
      const accept = (content: Record<string, string | boolean>) => ({ action: 'accept' as const, content });
      return req.params.message.includes('wipe') ? accept({ confirm: true }) : accept({ name: 'Legacy Bob' });
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
    transport = new LegacyTransport(new URL(server.url), {
      reconnectionOptions: {
        initialReconnectionDelay: 20,
        maxReconnectionDelay: 100,
        reconnectionDelayGrowFactor: 1,
        maxRetries: 5,
      },
    });
    await client.connect(transport);
  });
  afterAll(async () => {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  });

  test('a session id was issued and the revision negotiated', () => {
    expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
    expect(transport.protocolVersion).toBe('2025-11-25');
  });

  test('lists and calls tools; progress arrives', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    const seen: number[] = [];
    const r = await client.callTool({ name: 'slow', arguments: { steps: 2 } }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(text(r)).toBe('done 2');
    expect(seen).toEqual([1, 2]);
  });

  test('ctx.elicit and ctx.confirm become real requests answered by the client handler', async () => {
    const before = elicitations;
    expect(text(await client.callTool({ name: 'greet', arguments: { text: 'x' } }))).toBe('Hello, Legacy Bob!');
    const wiped = await client.callTool({ name: 'wipe', arguments: { text: 'x' } });
    expect(text(wiped)).toBe('wiped');
    expect(elicitations - before).toBe(2);
  });

  test('a stream closed by the server mid-call is resumed with Last-Event-ID', async () => {
    expect(text(await client.callTool({ name: 'test_reconnection', arguments: { text: 'x' } }))).toBe('reconnected');
  });

  test('tools/list_changed arrives on the GET stream after addTool', async () => {
    await new Promise((r) => setTimeout(r, 100)); // the client opens its GET stream after initialized
    app.addTool({ name: 'added_for_v1', description: 'new', handler: () => 'new' });
    await waitFor(() => listChanged > 0);
  });
});
