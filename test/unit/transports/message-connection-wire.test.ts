/**
 * stdio's message stream (MessageConnection, the same code `serveStdio` frames lines for): after
 * the client cancels a request or a listen stream nothing more is sent for it; errors for unknown
 * ids follow the pinned revision's schema; methods are own keys only.
 */
import { Context, ContextServerModule, McpApplication, Tool } from '../../../src';
import type { JsonRpcMessage } from '../../../src/protocol/jsonrpc';
import { silentLogger } from '../../../src/server/core/server-logger';
import { MessageConnection } from '../../../src/transports/message-connection';

const MODERN = '2026-07-28';
const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' },
};

class Lingering {
  @Tool({ description: 'Runs until cancelled, then tries to report progress and answer' })
  async linger(ctx: Context) {
    await ctx.progress(1, 2);
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    await ctx.progress(2, 2);
    return 'never seen';
  }
}

function connect() {
  const app = McpApplication.create({
    name: 'conn',
    version: '1.0.0',
    providers: [Lingering],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
  const sent: JsonRpcMessage[] = [];
  const conn = new MessageConnection(app.endpoint, (m) => sent.push(...(Array.isArray(m) ? m : [m])));
  return { app, conn, sent };
}

const tick = () => new Promise((r) => setTimeout(r, 20));

test('after notifications/cancelled for a listen stream nothing more is sent for it, not even a result', async () => {
  const { app, conn, sent } = connect();
  conn.receiveValue({
    jsonrpc: '2.0',
    id: 'listen-1',
    method: 'subscriptions/listen',
    params: { _meta: meta, notifications: { toolsListChanged: true } },
  });
  await tick();
  expect(sent[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
  conn.receiveValue({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } });
  app.addTool({ name: 'later', description: 'added after the cancel', input: { type: 'object' }, handler: () => 'x' });
  await tick();
  await conn.drain();
  expect(sent).toHaveLength(1);
});

test('a listen stream the server ends gracefully gets the SubscriptionsListenResult', async () => {
  const { conn, sent } = connect();
  conn.receiveValue({
    jsonrpc: '2.0',
    id: 9,
    method: 'subscriptions/listen',
    params: { _meta: meta, notifications: {} },
  });
  await tick();
  await conn.drain();
  expect(sent.at(-1)).toEqual({
    jsonrpc: '2.0',
    id: 9,
    result: {
      resultType: 'complete',
      _meta: {
        'io.modelcontextprotocol/subscriptionId': 9,
        'io.modelcontextprotocol/serverInfo': { name: 'conn', version: '1.0.0' },
      },
    },
  });
});

test('subscriptions/listen without notifications is -32602', async () => {
  const { conn, sent } = connect();
  conn.receiveValue({ jsonrpc: '2.0', id: 3, method: 'subscriptions/listen', params: { _meta: meta } });
  await tick();
  expect(sent[0]).toMatchObject({ id: 3, error: { code: -32602 } });
});

test('a cancelled request gets neither progress nor a response after the cancel', async () => {
  const { conn, sent } = connect();
  conn.receiveValue({
    jsonrpc: '2.0',
    id: 4,
    method: 'tools/call',
    params: { name: 'linger', _meta: { ...meta, progressToken: 't' } },
  });
  await tick();
  expect(sent).toHaveLength(1);
  conn.receiveValue({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4 } });
  await conn.drain();
  expect(sent).toHaveLength(1);
});

test('unknown ids: left out on 2026-07-28 and 2025-11-25, null on 2025-06-18', async () => {
  const modern = connect();
  modern.conn.receiveValue({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
  await tick();
  modern.conn.receiveText('{nope');
  expect(modern.sent.at(-1)).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });

  for (const [version, id] of [['2025-11-25', undefined], ['2025-06-18', null]] as const) {
    const legacy = connect();
    legacy.conn.receiveValue({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    await tick();
    legacy.conn.receiveText('{nope');
    const last = legacy.sent.at(-1) as unknown as Record<string, unknown>;
    if (id === undefined) expect(last).not.toHaveProperty('id');
    else expect(last.id).toBeNull();
  }
});

test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('stdio, both eras: %s is -32601', async (method) => {
  const modern = connect();
  modern.conn.receiveValue({ jsonrpc: '2.0', id: 1, method, params: { _meta: meta } });
  const legacy = connect();
  legacy.conn.receiveValue({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  });
  await tick();
  legacy.conn.receiveValue({ jsonrpc: '2.0', id: 1, method });
  await tick();
  expect(modern.sent[0]).toMatchObject({ id: 1, error: { code: -32601 } });
  expect(legacy.sent.at(-1)).toMatchObject({ id: 1, error: { code: -32601 } });
});
