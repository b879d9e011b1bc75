/** `server-stateless` (SEP-2575) diagnostic fixtures on 2026-07-28, and their legacy behaviour. */
import { replyStatus } from '../../../src/transports/http/reply-status';
import { createConformanceApp } from '../../../conformance/app';
import { DYNAMIC_PROMPT, DYNAMIC_TOOL } from '../../../conformance/diagnostics/dynamic-lists';
import { legacyClient, modernClient } from './harness';
import { dispatcherOf } from '../../../src/app/dispatcher-of';

const LISTEN_TIMEOUT_MS = 1000;

describe('server-stateless diagnostics', () => {
  const app = createConformanceApp();

  it('test_missing_capability: a client without sampling gets -32021 {requiredCapabilities: {sampling: {}}}', async () => {
    const client = await modernClient(app, {});
    const r = await client.raw('tools/call', { name: 'test_missing_capability', arguments: {} });
    expect('error' in r && r.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it('test_missing_capability: with sampling declared it asks, never rejects', async () => {
    const client = await modernClient(app, { sampling: {} });
    const r = await client.request('tools/call', { name: 'test_missing_capability', arguments: {} });
    expect(r).toMatchObject({
      resultType: 'input_required',
      inputRequests: { capability_probe: { method: 'sampling/createMessage' } },
    });
  });

  it('test_streaming_elicitation: a plain result and no server-to-client request', async () => {
    const client = await modernClient(app, { elicitation: {} });
    const r = await client.request('tools/call', { name: 'test_streaming_elicitation', arguments: {} });
    expect(r).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Streaming complete' }] });
    expect(client.notifications.filter((n) => !n.method.startsWith('notifications/'))).toEqual([]);
  });

  it('test_logging_tool: no notifications/message without _meta logLevel, one with it', async () => {
    const client = await modernClient(app, {});
    await client.request('tools/call', { name: 'test_logging_tool', arguments: {} });
    expect(client.notifications.filter((n) => n.method === 'notifications/message')).toEqual([]);
    await client.request('tools/call', {
      name: 'test_logging_tool',
      arguments: {},
      _meta: { 'io.modelcontextprotocol/logLevel': 'debug' },
    });
    expect(client.notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params)).toEqual([
      { level: 'info', data: 'test_logging_tool executed' },
    ]);
  });
});

describe('list changes at run time', () => {
  const app = createConformanceApp();
  const toolNames = async (client: Awaited<ReturnType<typeof modernClient>>) =>
    ((await client.request('tools/list')).tools as Array<{ name: string }>).map((t) => t.name);

  it('test_trigger_tool_change adds, then removes, the dynamic tool', async () => {
    const client = await modernClient(app, {});
    expect(await toolNames(client)).not.toContain(DYNAMIC_TOOL);
    expect((await client.request('tools/call', { name: 'test_trigger_tool_change', arguments: {} })).content).toEqual([
      { type: 'text', text: `${DYNAMIC_TOOL} added` },
    ]);
    expect(await toolNames(client)).toContain(DYNAMIC_TOOL);
    expect((await client.request('tools/call', { name: DYNAMIC_TOOL, arguments: {} })).content).toEqual([
      { type: 'text', text: 'dynamic tool says hi' },
    ]);
    await client.request('tools/call', { name: 'test_trigger_tool_change', arguments: {} });
    expect(await toolNames(client)).not.toContain(DYNAMIC_TOOL);
  });

  it('subscriptions/listen: ack first, tagged list_changed, and the filter honoured', async () => {
    const listener = await modernClient(app, {});
    const promptsOnly = await modernClient(app, {});
    void listener.raw('subscriptions/listen', { notifications: { toolsListChanged: true } });
    void promptsOnly.raw('subscriptions/listen', { notifications: { promptsListChanged: true } });
    const caller = await modernClient(app, {});
    await caller.request('tools/call', { name: 'test_trigger_tool_change', arguments: {} });
    await caller.request('tools/call', { name: 'test_trigger_prompt_change', arguments: {} });
    await caller.request('tools/call', { name: 'test_trigger_tool_change', arguments: {} });
    await caller.request('tools/call', { name: 'test_trigger_prompt_change', arguments: {} });

    const tag = { 'io.modelcontextprotocol/subscriptionId': 1 };
    expect(listener.notifications).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: tag, notifications: { toolsListChanged: true } },
      },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: tag } },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: tag } },
    ]);
    expect(promptsOnly.notifications.map((n) => n.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/prompts/list_changed',
      'notifications/prompts/list_changed',
    ]);
    await Promise.race([
      Promise.all([listener.close(), promptsOnly.close()]),
      new Promise((r) => setTimeout(r, LISTEN_TIMEOUT_MS)),
    ]);
  });

  it('test_trigger_prompt_change toggles the dynamic prompt, and legacy sessions hear list_changed', async () => {
    const { client: legacy } = await legacyClient(app);
    await legacy.request('tools/call', { name: 'test_trigger_prompt_change', arguments: {} });
    const { prompts } = (await legacy.request('prompts/list')) as { prompts: Array<{ name: string }> };
    const present = prompts.some((p) => p.name === DYNAMIC_PROMPT);
    await legacy.request('tools/call', { name: 'test_trigger_prompt_change', arguments: {} });
    const after = ((await legacy.request('prompts/list')).prompts as Array<{ name: string }>).some(
      (p) => p.name === DYNAMIC_PROMPT,
    );
    expect(after).toBe(!present);
    expect(legacy.notifications.filter((n) => n.method === 'notifications/prompts/list_changed')).toHaveLength(2);
  });
});

describe('HTTP statuses the dispatcher hands to the transport', () => {
  const app = createConformanceApp();
  const meta = (clientCapabilities: object) => ({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': clientCapabilities,
  });
  const io = () => ({ signal: new AbortController().signal, notify: () => undefined });

  it('test_missing_capability is HTTP 400 with -32021', async () => {
    const reply = await dispatcherOf(app).handleModern(
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'test_missing_capability', arguments: {}, _meta: meta({}) },
      },
      io(),
    );
    expect(replyStatus(reply, 'modern')).toBe(400);
    expect(reply.message).toMatchObject({
      id: 7,
      error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
    });
  });

  it('an input_required answer is an ordinary 200', async () => {
    const reply = await dispatcherOf(app).handleModern(
      {
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'test_input_required_result_elicitation', _meta: meta({ elicitation: {} }) },
      },
      io(),
    );
    expect(replyStatus(reply, 'modern')).toBe(200);
    expect(reply.message).toMatchObject({ id: 8, result: { resultType: 'input_required' } });
  });
});
