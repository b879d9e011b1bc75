/**
 * The conformance app over real HTTP (serveHttp on a free loopback port): the paths the runner
 * depends on most, so a transport regression shows here before the gate runs.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createConformanceApp } from '../../../conformance/app';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { SAMPLING_ANSWER } from './harness';

let server: HttpServerHandle;
beforeAll(async () => {
  server = await serveHttp(createConformanceApp(), { port: 0, host: '127.0.0.1', path: '/mcp' });
});
afterAll(() => server.close({ deadlineMs: 1000 }));

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'conformance-test-client', version: '1.0.0' },
};

/** A 2026-07-28 POST as the runner sends it; SSE bodies are read to the end and split into messages. */
async function post(method: string, params: Record<string, unknown>, clientCapabilities: object) {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        ...MODERN_META,
        'io.modelcontextprotocol/clientCapabilities': clientCapabilities,
        ...(params._meta as object),
      },
    },
  };
  const res = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const messages = res.headers.get('content-type')?.startsWith('text/event-stream')
    ? text.split('\n').filter((l) => l.startsWith('data:') && l.length > 5).map((l) => JSON.parse(l.slice(5)))
    : [JSON.parse(text)];
  return { status: res.status, messages };
}

describe('2026-07-28 over HTTP', () => {
  it('progress notifications ride the tools/call SSE response, then the result with resultType', async () => {
    const { status, messages } = await post(
      'tools/call',
      { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'progress-test-1' } },
      {},
    );
    expect(status).toBe(200);
    expect(messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress)).toEqual([
      0, 50, 100,
    ]);
    expect(messages.at(-1)).toMatchObject({ id: 1, result: { resultType: 'complete' } });
  });

  it('test_missing_capability is HTTP 400 / -32021', async () => {
    const { status, messages } = await post('tools/call', { name: 'test_missing_capability', arguments: {} }, {});
    expect(status).toBe(400);
    expect(messages[0]).toMatchObject({
      id: 1,
      error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
    });
  });

  it('an MRTR round trip: input_required, then complete', async () => {
    const caps = { elicitation: {} };
    const r1 = await post('tools/call', { name: 'test_input_required_result_elicitation', arguments: {} }, caps);
    const first = r1.messages[0].result;
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create' } },
    });
    const r2 = await post(
      'tools/call',
      {
        name: 'test_input_required_result_elicitation',
        arguments: {},
        inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
        requestState: first.requestState,
      },
      caps,
    );
    expect(r2.messages.at(-1).result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Hello, Alice!' }],
    });
  });
});

describe('2025-11-25 over HTTP with the official v1 client', () => {
  it('sampling is a real request on the session; logging follows setLevel', async () => {
    const client = new V1Client(
      { name: 'conformance-test-client', version: '1.0.0' },
      { capabilities: { sampling: {}, elicitation: {} } },
    );
    const asked: unknown[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      asked.push(req.params);
      return SAMPLING_ANSWER as never;
    });
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => void logs.push(n.params.data));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const sampled = await client.callTool({
        name: 'test_sampling',
        arguments: { prompt: 'Test prompt for sampling' },
      });
      expect(sampled.content).toEqual([
        { type: 'text', text: 'LLM response: This is a test response from the client' },
      ]);
      expect(asked).toHaveLength(1);
      await client.setLoggingLevel('debug');
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    } finally {
      await client.close();
    }
  });
});
