/** What every modern request carries (_meta, headers), -32022 retry, refused tools, cancellation. */
import { ContextClient, ProtocolError } from '../../../src';
import { complete, FakeTransport, type Script } from './fake-transport';

const headerTool = {
  name: 'query',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      verbose: { type: ['boolean', 'null'], 'x-mcp-header': 'Verbose' },
      note: { type: 'string' },
    },
  },
};
const badTool = {
  name: 'bad',
  inputSchema: { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'My Region' } } },
};
const tools: Script = (r) =>
  r.method === 'tools/list' ? { result: { resultType: 'complete', tools: [headerTool, badTool] } } : complete();

test('_meta carries version, capabilities, client info, log level and progress token', async () => {
  const transport = new FakeTransport(() => complete());
  const client = await ContextClient.connect(
    { transport },
    {
      protocolVersion: '2026-07-28',
      clientInfo: { name: 'c', version: '9' },
      logLevel: 'info',
      roots: () => [],
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }),
      samplingTools: true,
    },
  );
  await client.callTool('t', {}, { onProgress: () => undefined });
  expect(transport.calls[0]!.params!._meta).toEqual({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {
      sampling: { tools: {} },
      roots: {},
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    },
    'io.modelcontextprotocol/clientInfo': { name: 'c', version: '9' },
    'io.modelcontextprotocol/logLevel': 'info',
    progressToken: expect.any(String),
  });
});

test('HTTP headers: version, method, name and the x-mcp-header mirrors (base64 for unsafe, none for null)', async () => {
  const transport = new FakeTransport(tools, 'http');
  const warnings: string[] = [];
  const client = await ContextClient.connect(
    { transport },
    { protocolVersion: '2026-07-28', onWarning: (m) => warnings.push(m) },
  );
  await client.callTool('query', { region: ' eu west ', priority: 42, verbose: null, note: 'n' });
  const call = transport.requests.find((r) => r.message.method === 'tools/call')!;
  expect(call.headers).toEqual({
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': 'query',
    'Mcp-Param-Region': `=?base64?${Buffer.from(' eu west ').toString('base64')}?=`,
    'Mcp-Param-Priority': '42',
  });
  expect(warnings.join()).toMatch(/Refusing tool "bad"/);
});

test('a tool with invalid x-mcp-header declarations is dropped from listTools and refused by callTool', async () => {
  const transport = new FakeTransport(tools, 'http');
  const client = await ContextClient.connect({ transport }, { protocolVersion: '2026-07-28' });
  expect((await client.listTools()).map((t) => t.name)).toEqual(['query']);
  await expect(client.callTool('bad', { a: 'x' })).rejects.toThrow(/Tool "bad" was refused/);
});

test('-32022 is retried once with a supported version; a second refusal surfaces as ProtocolError', async () => {
  let refusals = 2;
  const transport = new FakeTransport(() =>
    refusals-- > 0
      ? {
          error: {
            code: -32022,
            message: 'Unsupported protocol version',
            data: { supported: ['2026-07-28'], requested: 'x' },
          },
          httpStatus: 400,
        }
      : complete(),
  );
  const client = await ContextClient.connect({ transport }, { protocolVersion: '2026-07-28' });
  const error = await client.callTool('t').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProtocolError);
  expect(error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'] }, httpStatus: 400 });
  expect(transport.calls).toHaveLength(2);
  await expect(client.callTool('t')).resolves.toBeDefined();
});

test('aborting a call on a stream transport sends notifications/cancelled', async () => {
  const transport = new FakeTransport(() => new Promise(() => undefined));
  const client = await ContextClient.connect({ transport }, { protocolVersion: '2026-07-28' });
  const controller = new AbortController();
  const call = client.callTool('slow', {}, { signal: controller.signal });
  controller.abort(new Error('user gave up'));
  await expect(call).rejects.toThrow('user gave up');
  expect(transport.notifications).toEqual([
    {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: transport.calls[0]!.id, reason: 'user gave up' },
    },
  ]);
});

test('aborting a modern HTTP call closes the request instead of notifying', async () => {
  const transport = new FakeTransport(
    (r) => (r.method === 'tools/list' ? { result: { tools: [] } } : new Promise(() => undefined)),
    'http',
  );
  const client = await ContextClient.connect({ transport }, { protocolVersion: '2026-07-28' });
  const controller = new AbortController();
  const call = client.callTool('slow', {}, { signal: controller.signal });
  await new Promise((r) => setTimeout(r, 1));
  controller.abort(new Error('stop'));
  await expect(call).rejects.toThrow('stop');
  expect(transport.notifications).toEqual([]);
});

test('requestTimeoutMs cancels a request with a typed error', async () => {
  const transport = new FakeTransport(() => new Promise(() => undefined));
  const client = await ContextClient.connect({ transport }, { protocolVersion: '2026-07-28', requestTimeoutMs: 20 });
  await expect(client.callTool('slow')).rejects.toMatchObject({
    name: 'FrameworkError',
    method: 'tools/call',
    timeoutMs: 20,
  });
});

test('list methods follow cursors; *Page returns one page', async () => {
  const transport = new FakeTransport((r) => {
    const cursor = r.params?.cursor;
    if (cursor === undefined) return { result: { prompts: [{ name: 'a' }], nextCursor: 'p2' } };
    if (cursor === 'p2') return { result: { prompts: [{ name: 'b' }], nextCursor: 'p3' } };
    return { result: { prompts: [{ name: 'c' }] } };
  });
  const client = await ContextClient.connect({ transport }, { protocolVersion: '2026-07-28' });
  expect((await client.listPrompts()).map((p) => p.name)).toEqual(['a', 'b', 'c']);
  expect(await client.listPromptsPage('p2')).toEqual({ items: [{ name: 'b' }], nextCursor: 'p3' });
});
