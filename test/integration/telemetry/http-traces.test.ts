/**
 * Over real HTTP: a `traceparent` sent in `_meta` by the official v1 client and by our client
 * parents the server span; a legacy ask on the session carries the trace context back; the span
 * says `network.transport=tcp` and a hashed session id; hostile trace context is ignored; a pino
 * logger gets the access log line.
 */
import { createHash, randomBytes } from 'node:crypto';
import { IsString } from 'class-validator';
import pino from 'pino';
import { trace } from '@opentelemetry/api';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Context,
  ContextClient,
  ContextServerModule,
  McpApplication,
  Tool,
  serveHttp,
  type HttpServerHandle,
} from '../../../src';
import { installOtel, spansNamed, type TestOtel } from '../../helpers/otel';

class NameForm {
  @IsString() name!: string;
}

class Tools {
  @Tool({ description: 'Echo' })
  echo() {
    return 'echo';
  }

  @Tool({ description: 'Asks a name', forms: [NameForm] })
  async greet(ctx: Context) {
    const r = await ctx.elicit(NameForm, 'Your name?', { key: 'user_name' });
    return r.action === 'accept' ? `Hello ${r.content.name}` : r.action;
  }
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
let otel: TestOtel;
let server: HttpServerHandle;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  otel = installOtel();
  const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) });
  const app = McpApplication.create({
    name: 'traced',
    version: '1.0.0',
    providers: [Tools],
    modules: [
      ContextServerModule.configure({ logger, requestStateKey: randomBytes(32), telemetry: { accessLog: true } }),
    ],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(async () => {
  await server.close();
  await otel.shutdown();
});
beforeEach(() => otel.spans.reset());

async function v1Client(onElicit?: (meta: unknown) => void) {
  const client = new LegacyClient({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    onElicit?.(req.params._meta);
    return { action: 'accept', content: { name: 'Ada' } };
  });
  const transport = new LegacyTransport(new URL(server.url));
  await client.connect(transport);
  return { client, transport };
}

test('the official v1 client’s traceparent parents the span; the session id is hashed; tcp', async () => {
  const { client, transport } = await v1Client();
  await client.callTool({ name: 'echo', arguments: {}, _meta: { traceparent: `00-${TRACE}-${SPAN}-01` } });
  const sessionId = transport.sessionId!;
  await client.close();
  const span = spansNamed(otel.spans, 'tools/call echo')[0]!;
  expect(span.spanContext().traceId).toBe(TRACE);
  expect(span.parentSpanContext).toMatchObject({ traceId: TRACE, spanId: SPAN, isRemote: true });
  expect(span.attributes).toMatchObject({
    'network.transport': 'tcp',
    'mcp.protocol.version': '2025-11-25',
    'mcp.session.id': createHash('sha256').update(sessionId).digest('hex').slice(0, 32),
  });
  expect(JSON.stringify(otel.spans.getFinishedSpans().map((s) => s.attributes))).not.toContain(sessionId);
  const access = logLines.filter((l) => l.msg === 'mcp request' && l.target === 'echo');
  expect(access[access.length - 1]).toMatchObject({ level: 30, method: 'tools/call', era: 'legacy', outcome: 'ok' });
  expect(access[access.length - 1]!.durationMs).toEqual(expect.any(Number));
});

test('a legacy ask on the session carries the trace context to the client', async () => {
  const seen: unknown[] = [];
  const { client } = await v1Client((meta) => seen.push(meta));
  await client.callTool({ name: 'greet', arguments: {}, _meta: { traceparent: `00-${TRACE}-${SPAN}-01` } });
  await client.close();
  const span = spansNamed(otel.spans, 'tools/call greet')[0]!;
  expect(seen).toEqual([{ traceparent: `00-${TRACE}-${span.spanContext().spanId}-01` }]);
});

test('hostile trace context is ignored: the request is served under a new trace', async () => {
  const { client } = await v1Client();
  for (const traceparent of ['00-' + 'f'.repeat(10_000), `00-${'0'.repeat(32)}-${SPAN}-01`, 'garbage', '']) {
    const result = await client.callTool({
      name: 'echo',
      arguments: {},
      _meta: { traceparent, tracestate: 'x'.repeat(100_000) },
    });
    expect(result.isError).toBeFalsy();
  }
  await client.close();
  const spans = spansNamed(otel.spans, 'tools/call echo');
  expect(spans).toHaveLength(4);
  for (const s of spans) expect(s.parentSpanContext).toBeUndefined();
});

test('our client over HTTP sends the active span’s traceparent on every round', async () => {
  const client = await ContextClient.connect(
    { url: server.url },
    { elicitation: () => ({ action: 'accept', content: { name: 'Bo' } }), protocolVersion: '2026-07-28' },
  );
  const user = trace.getTracer('test');
  const userSpan = await user.startActiveSpan('user', async (span) => {
    await client.callTool('greet', {});
    span.end();
    return span;
  });
  await client.close();
  const rounds = spansNamed(otel.spans, 'tools/call greet');
  expect(rounds).toHaveLength(2);
  for (const s of rounds) expect(s.parentSpanContext?.spanId).toBe(userSpan.spanContext().spanId);
  expect(rounds[1]!.links.map((l) => l.context.spanId)).toEqual([rounds[0]!.spanContext().spanId]);
  const flowLines = logLines.filter((l) => l.target === 'greet' && l.era === 'modern');
  expect(new Set(flowLines.map((l) => l.flowId)).size).toBe(1);
  expect(flowLines[0]!.flowId).toBe(rounds[0]!.attributes['mcp.flow.id']);
});
