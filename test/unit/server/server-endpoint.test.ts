/**
 * The narrow endpoint transports use (issue 12): the server, not each transport, routes
 * `subscriptions/listen` to a stream; legacy sessions hear changes through it; transports
 * learn the settings they need from it.
 */
import { randomBytes } from 'node:crypto';
import { LegacySession } from '../../../src/server/legacy/legacy-session';
import type { RequestIO } from '../../../src/server/request/request-io';
import type { JsonRpcNotification } from '../../../src/protocol/jsonrpc';
import { McpApplication, RequestStateModule } from '../../../src';
import { makeApp } from '../../helpers/apps';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' },
};
const io = (): RequestIO => ({ signal: new AbortController().signal, notify: () => undefined });
const listen = (id: number) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'subscriptions/listen',
  params: { _meta: meta, notifications: { toolsListChanged: true } },
});
const tool = (name: string) => ({ name, handler: () => 'ok' });

test('subscriptions/listen is answered with a stream: ack, forwarded changes, final result', async () => {
  const app = makeApp([]);
  const answer = await app.endpoint.dispatchModern(listen(7), io());
  if (answer.kind !== 'stream') throw new Error(`expected a stream, got ${JSON.stringify(answer.message)}`);
  expect(answer.ack).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
  const sent: JsonRpcNotification[] = [];
  app.addTool(tool('before'));
  answer.forward((n) => sent.push(n));
  app.addTool(tool('after'));
  expect(sent.map((n) => n.method)).toEqual(['notifications/tools/list_changed']);
  expect(answer.close()).toMatchObject({ id: 7, result: { resultType: 'complete' } });
  app.addTool(tool('closed'));
  expect(sent).toHaveLength(1);
});

test('a refused listen is a reply with its status; another method is a reply', async () => {
  const app = makeApp([]);
  const bad = await app.endpoint.dispatchModern({ ...listen(1), params: { _meta: meta } }, io());
  expect(bad).toMatchObject({ kind: 'reply', message: { id: 1, error: { code: -32602 } } });
  const list = await app.endpoint.dispatchModern(
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } },
    io(),
  );
  expect(list).toMatchObject({ kind: 'reply', message: { id: 2, result: { tools: [] } } });
});

test('listen is not a legacy method', async () => {
  const app = makeApp([]);
  const reply = await app.endpoint.dispatchLegacy(
    { jsonrpc: '2.0', id: 3, method: 'subscriptions/listen' },
    new LegacySession(),
    io(),
  );
  expect(reply.message).toMatchObject({ error: { code: -32601 } });
});

test('a legacy session hears list changes and its subscribed resources only', () => {
  const app = makeApp([]);
  const session = new LegacySession();
  session.subscribe('mem://a', () => {});
  const sent: JsonRpcNotification[] = [];
  const stop = app.endpoint.followChanges(session, (n) => sent.push(n));
  app.addTool(tool('t'));
  app.notifyResourceUpdated('mem://a');
  app.notifyResourceUpdated('mem://b');
  stop();
  app.addTool(tool('u'));
  expect(sent).toEqual([
    { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
    { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'mem://a' } },
  ]);
});

test('settings tell a transport what it needs of the configuration', () => {
  const authenticate = () => ({ id: 'p' });
  const app = makeApp([], { authenticate, maxPendingAsksPerSession: 3 });
  expect(app.endpoint.settings).toMatchObject({
    authenticate,
    maxPendingAsksPerSession: 3,
    ephemeralStateKey: true,
    processLocalFlowStore: true,
  });
  expect(Object.isFrozen(app.endpoint.settings)).toBe(true);
});

test('a key set through RequestStateModule alone is not reported ephemeral', () => {
  const app = McpApplication.create({
    name: 'keyed',
    version: '1.0.0',
    providers: [],
    modules: [RequestStateModule.configure({ requestStateKey: randomBytes(32) })],
  });
  expect(app.endpoint.settings).toMatchObject({ ephemeralStateKey: false, processLocalFlowStore: true });
  expect(app.hasEphemeralStateKey).toBe(false);
});
