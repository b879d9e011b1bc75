/**
 * Issue 18: one span per request after the MCP semantic conventions, and the rounds of one 2026
 * flow tied together by `mcp.flow.id` and links to the flow's first span, with asks as events.
 * Our client's active span parents the server spans; a legacy ask carries the trace context.
 */
import { randomBytes } from 'node:crypto';
import { IsString } from 'class-validator';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { PassThrough } from 'node:stream';
import { ContextClient, Context, MemoryClient, Tool, serveStdio } from '../../../src';
import { makeApp } from '../../helpers/apps';
import { installOtel, pointsOf, spansNamed, type TestOtel } from '../../helpers/otel';

class NameForm {
  @IsString() name!: string;
}
class CityForm {
  @IsString() city!: string;
}

class Trip {
  @Tool({ description: 'Two asks in sequence: three rounds on 2026', forms: [NameForm, CityForm] })
  async trip(ctx: Context) {
    const name = await ctx.elicit(NameForm, 'Your name?', { key: 'user_name' });
    const city = await ctx.elicit(CityForm, 'Where to?', { key: 'city' });
    const n = name.action === 'accept' ? name.content.name : name.action;
    const c = city.action === 'accept' ? city.content.city : city.action;
    return `${n} goes to ${c}`;
  }

  @Tool({ description: 'Echo' })
  echo() {
    return 'echo';
  }

  @Tool({ description: 'Fails as a tool' })
  broken() {
    throw new Error('nope');
  }
}

let otel: TestOtel;
beforeAll(() => {
  otel = installOtel();
});
afterAll(() => otel.shutdown());
beforeEach(() => otel.spans.reset());

const key = randomBytes(32);
const app = makeApp([Trip], { requestStateKey: key });

const answers = (params: { message: string }) =>
  params.message === 'Where to?'
    ? { action: 'decline' as const }
    : { action: 'accept' as const, content: { name: 'Ada' } };

test('a three-round flow yields three spans with one flow id, links to the first, asks as events', async () => {
  const client = await ContextClient.connect({ app }, { elicitation: answers, protocolVersion: '2026-07-28' });
  const user = trace.getTracer('test');
  const result = await user.startActiveSpan('user-work', async (span) => {
    try {
      return await client.callTool('trip', {});
    } finally {
      span.end();
    }
  });
  await client.close();
  expect(result.content).toEqual([{ type: 'text', text: 'Ada goes to decline' }]);

  const userSpan = spansNamed(otel.spans, 'user-work')[0]!;
  const rounds = spansNamed(otel.spans, 'tools/call trip');
  expect(rounds).toHaveLength(3);
  const flowIds = new Set(rounds.map((s) => s.attributes['mcp.flow.id']));
  expect(flowIds.size).toBe(1);
  expect([...flowIds][0]).toEqual(expect.any(String));
  const [first, second, third] = rounds as [(typeof rounds)[0], (typeof rounds)[0], (typeof rounds)[0]];
  for (const s of rounds) {
    expect(s.kind).toBe(SpanKind.SERVER);
    // Our client put the active span's traceparent in _meta: it parents every round.
    expect(s.spanContext().traceId).toBe(userSpan.spanContext().traceId);
    expect(s.parentSpanContext?.spanId).toBe(userSpan.spanContext().spanId);
    expect(s.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'trip',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.request.id': expect.any(String),
    });
    expect(s.attributes['error.type']).toBeUndefined();
  }
  expect(first.links).toHaveLength(0);
  for (const later of [second, third]) {
    expect(later.links.map((l) => l.context.spanId)).toEqual([first.spanContext().spanId]);
  }
  const events = rounds.map((s) => s.events.map((e) => e.attributes));
  const asked = { 'mcp.ask.kind': 'elicitation', 'mcp.ask.key': 'user_name', 'mcp.ask.outcome': 'asked' };
  expect(events[0]).toEqual([asked]);
  expect(events[1]).toEqual([
    { 'mcp.ask.kind': 'elicitation', 'mcp.ask.key': 'user_name', 'mcp.ask.outcome': 'accept' },
    { 'mcp.ask.kind': 'elicitation', 'mcp.ask.key': 'city', 'mcp.ask.outcome': 'asked' },
  ]);
  expect(events[2]).toEqual([{ 'mcp.ask.kind': 'elicitation', 'mcp.ask.key': 'city', 'mcp.ask.outcome': 'decline' }]);
  // Never the answer: no event or attribute carries what the user typed.
  expect(JSON.stringify(rounds.map((s) => [s.attributes, s.events]))).not.toContain('Ada');

  const metrics = await otel.collect();
  const flowRounds = pointsOf(metrics, 'mcp.server.flow.rounds')[0]!.value as { sum: number; count: number };
  expect(flowRounds).toMatchObject({ sum: 3, count: 1 });
  expect(pointsOf(metrics, 'mcp.server.asks', { 'mcp.ask.outcome': 'accept' })[0]!.value).toBe(1);
  expect(pointsOf(metrics, 'mcp.server.asks', { 'mcp.ask.outcome': 'decline' })[0]!.value).toBe(1);
  const sizes = pointsOf(metrics, 'mcp.server.request_state.size')[0]!.value as { count: number; min: number };
  expect(sizes.count).toBe(2);
  expect(sizes.min).toBeGreaterThan(0);
  const duration = metrics.get('mcp.server.operation.duration')!;
  expect(duration.descriptor.unit).toBe('s');
  const trip = pointsOf(metrics, 'mcp.server.operation.duration', { 'gen_ai.tool.name': 'trip' })[0]!;
  expect(trip.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool' });
  expect((trip.value as { count: number; buckets: { boundaries: number[] } }).buckets.boundaries).toEqual([
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
  ]);
});

test('errors: a tool error is tool_error, a JSON-RPC error its code, with ERROR status; an unknown tool keeps its name out of the span name', async () => {
  const client = await MemoryClient.connect(app, { era: 'modern' });
  await client.request('tools/call', { name: 'broken', arguments: {} });
  await client.raw('tools/call', { name: 'no-such-tool-' + 'x'.repeat(40), arguments: {} });
  await client.raw('no/such/method', {});
  await client.close();
  const broken = spansNamed(otel.spans, 'tools/call broken')[0]!;
  expect(broken.attributes['error.type']).toBe('tool_error');
  expect(broken.status.code).toBe(SpanStatusCode.ERROR);
  const unknown = spansNamed(otel.spans, 'tools/call')[0]!;
  expect(unknown.attributes['error.type']).toMatch(/^-326/);
  expect(unknown.attributes['rpc.response.status_code']).toBe(unknown.attributes['error.type']);
  expect(unknown.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.any(String) });
  const other = spansNamed(otel.spans, '_OTHER')[0]!;
  expect(other.attributes).toMatchObject({ 'mcp.method.name': '_OTHER', 'error.type': '-32601' });
});

test('a legacy ask carries the request span’s trace context to the client', async () => {
  const seen: unknown[] = [];
  const client = await MemoryClient.connect(app, {
    era: 'legacy',
    capabilities: { elicitation: {} },
    handlers: {
      'elicitation/create': (params) => {
        seen.push(params._meta);
        return params.message === 'Where to?'
          ? { action: 'accept', content: { city: 'Oslo' } }
          : { action: 'accept', content: { name: 'Bo' } };
      },
    },
  });
  await client.request('tools/call', { name: 'trip', arguments: {} });
  await client.close();
  const span = spansNamed(otel.spans, 'tools/call trip')[0]!;
  const { traceId, spanId } = span.spanContext();
  expect(seen).toEqual([
    { traceparent: `00-${traceId}-${spanId}-01` },
    { traceparent: `00-${traceId}-${spanId}-01` },
  ]);
  expect(span.attributes['mcp.protocol.version']).toBe('2025-11-25');
  expect(span.events.map((e) => e.attributes?.['mcp.ask.outcome'])).toEqual(['accept', 'accept']);
  const metrics = await otel.collect();
  const pending = pointsOf(metrics, 'mcp.server.legacy.pending_asks')[0]!;
  expect(pending.value).toBe(0);
});

test('over stdio the span says network.transport=pipe', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const replies: string[] = [];
  output.on('data', (chunk: Buffer) => replies.push(chunk.toString()));
  const handle = await serveStdio(app, { input, output });
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'pipe', version: '1' },
  };
  const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', _meta: meta } };
  input.write(JSON.stringify(request) + '\n');
  input.end();
  await handle.closed;
  expect(replies.join('')).toContain('"echo"');
  expect(spansNamed(otel.spans, 'tools/call echo')[0]!.attributes['network.transport']).toBe('pipe');
});
