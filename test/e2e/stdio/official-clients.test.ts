/**
 * The sample app in a real child process over stdio, driven by the official clients:
 * v1 (@modelcontextprotocol/sdk, legacy 2025-11-25) and v2 (@modelcontextprotocol/client, 2026-07-28).
 */
import { spawn } from 'node:child_process';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { builtEntry } from '../../helpers/built-app';

const entry = builtEntry('sample-app/src/main.js');
const serverParams = { command: process.execPath, args: [entry, '--stdio'], stderr: 'pipe' as const };

describe('official v1 client, legacy 2025-11-25 over stdio', () => {
  let client: V1Client;
  const elicitations: unknown[] = [];

  beforeAll(async () => {
    client = new V1Client({ name: 'v1-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicitations.push(request.params);
      const params = request.params as { requestedSchema?: { properties?: Record<string, unknown> } };
      const props = params.requestedSchema?.properties ?? {};
      if ('confirm' in props) return { action: 'accept', content: { confirm: true } };
      if ('style' in props) return { action: 'accept', content: { style: 'luxury' } };
      return { action: 'accept', content: { fullName: 'Ada Lovelace', email: 'ada@example.com', seat: 'aisle' } };
    });
    await client.connect(new V1Stdio(serverParams));
  });
  afterAll(() => client.close());

  test('negotiates 2025-11-25 and lists everything', async () => {
    expect(client.getServerVersion()).toEqual({ name: 'travel-desk', version: '1.0.0' });
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['search_flights', 'book_flight', 'trip_summary', 'export_itinerary', 'connect_account']),
    );
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('plan_trip');
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('travel://policies');
    expect((await client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate).toBe(
      'travel://bookings/{reference}',
    );
  });

  test('calls a tool with progress and structured output', async () => {
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'search_flights', arguments: { from: 'AMS', to: 'BCN' } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(result.structuredContent).toEqual({ offers: [expect.objectContaining({ id: 'AMS-BCN-100' })] });
    // The v1 client handles notifications a microtask late: a progress notification that arrives in
    // the same chunk as the response is dropped by it, so only the first one is asserted.
    expect(progress[0]).toBe(0);
  });

  test('book_flight really awaits two elicitations on the held connection', async () => {
    const result = await client.callTool({ name: 'book_flight', arguments: { flightId: 'AMS-CDG-102' } });
    expect(elicitations).toHaveLength(2);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toMatch(/^Booked AMS-CDG-102 for Ada Lovelace \(seat: aisle\)\. Reference TD-/);
    const reference = /Reference (TD-\d+)/.exec(text)![1]!;
    const read = await client.readResource({ uri: `travel://bookings/${reference}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ flightId: 'AMS-CDG-102' });
  });

  test('gets a prompt, reads a resource, completes an argument, reports invalid arguments as a tool error', async () => {
    const prompt = await client.getPrompt({ name: 'plan_trip', arguments: { destination: 'Lisbon' } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('luxury trip to Lisbon');
    const policies = await client.readResource({ uri: 'travel://policies' });
    expect(policies.contents[0]).toMatchObject({ uri: 'travel://policies', mimeType: 'text/markdown' });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'plan_trip' },
      argument: { name: 'destination', value: 'b' },
    });
    expect(completion.completion.values).toEqual(['BCN', 'BER']);
    const bad = await client.callTool({ name: 'search_flights', arguments: { from: 'XXX', to: 'BCN' } });
    expect(bad.isError).toBe(true);
  });
});

describe('official v2 client, 2026-07-28 over stdio', () => {
  let client: V2Client;
  let rounds = 0;

  beforeAll(async () => {
    client = new V2Client(
      { name: 'v2-e2e', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      rounds++;
      const params = request.params as { requestedSchema?: { properties?: Record<string, unknown> } };
      const props = params.requestedSchema?.properties ?? {};
      const content: Record<string, string | boolean> =
        'confirm' in props
          ? { confirm: true }
          : { fullName: 'Grace Hopper', email: 'grace@example.com', seat: 'window' };
      return { action: 'accept' as const, content };
    });
    await client.connect(new V2Stdio(serverParams));
  });
  afterAll(() => client.close());

  test('lists, calls, reads and completes on the modern era', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('book_flight');
    const result = await client.callTool({ name: 'search_flights', arguments: { from: 'LIS', to: 'MAD' } });
    expect(result.structuredContent).toBeDefined();
    const read = await client.readResource({ uri: 'travel://policies' });
    expect(read.contents[0]).toMatchObject({ uri: 'travel://policies' });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'plan_trip' },
      argument: { name: 'destination', value: 'm' },
    });
    expect(completion.completion.values).toEqual(['MAD', 'MUC']);
  });

  test('the same book_flight handler completes through input_required rounds', async () => {
    rounds = 0;
    const result = await client.callTool({ name: 'book_flight', arguments: { flightId: 'LIS-MAD-166' } });
    expect(rounds).toBe(2);
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^Booked LIS-MAD-166 for Grace Hopper/);
  });
});

test('stdout carries only JSON-RPC lines, bad lines get -32700, and EOF exits 0 after in-flight work', async () => {
  const child = spawn(process.execPath, [entry, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  child.stdin.write('this is not json\n');
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }) + '\n');
  child.stdin.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'search_flights', arguments: { from: 'AMS', to: 'LHR' }, _meta: meta },
    }) + '\n',
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const lines = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number }; result?: unknown });
  expect(code).toBe(0);
  expect(lines[0]).toMatchObject({ id: null, error: { code: -32700 } });
  expect(lines.find((l) => l.id === 1)?.result).toBeDefined();
  expect(lines.find((l) => l.id === 2)?.result).toBeDefined();
});
