/**
 * Resource caps on the wire: `resources/subscribe` only for what exists and at most
 * `maxSubscriptionsPerSession` per session; URIs longer than `maxUriLength` are refused before any
 * template is matched (both eras). After each refusal a normal call still succeeds.
 */
import {
  ContextServerModule,
  McpApplication,
  Resource,
  ResourceTemplate,
  serveHttp,
  type HttpServerHandle,
} from '../../../../src';
import { silentLogger } from '../../../../src/server/core/server-logger';
import { modernPost, RawLegacyClient, replyOf } from '../../../helpers/http-fixtures';

class Files {
  @Resource({ uri: 'test://readme', mimeType: 'text/plain' })
  readme() {
    return 'read me';
  }
  @ResourceTemplate({ uriTemplate: 'test://items/{id}', mimeType: 'text/plain' })
  item(vars: { id: string }) {
    return `item ${vars.id}`;
  }
}

let server: HttpServerHandle;
beforeAll(async () => {
  const app = McpApplication.create({
    name: 'caps',
    version: '1.0.0',
    providers: [Files],
    modules: [
      ContextServerModule.configure({ logger: silentLogger, maxSubscriptionsPerSession: 3, maxUriLength: 256 }),
    ],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close());

async function session(): Promise<RawLegacyClient> {
  const c = new RawLegacyClient(server.url);
  await c.initialize();
  return c;
}

test('subscribe to a URI no resource or template matches is -32002 "Resource not found"; existing ones succeed', async () => {
  const c = await session();
  const missing = replyOf(await c.call(1, 'resources/subscribe', { uri: 'test://nothing/here' }));
  expect(missing.error).toMatchObject({
    code: -32002,
    message: 'Resource not found: test://nothing/here',
    data: { uri: 'test://nothing/here' },
  });
  expect(replyOf(await c.call(2, 'resources/subscribe', { uri: 'test://readme' }))).toMatchObject({
    id: 2,
    result: {},
  });
  expect(replyOf(await c.call(3, 'resources/subscribe', { uri: 'test://items/7' }))).toMatchObject({
    id: 3,
    result: {},
  });
});

test('the per-session subscription cap refuses one more, re-subscribing is free, unsubscribing makes room', async () => {
  const c = await session();
  for (const [i, id] of ['1', '2', '3'].entries()) {
    expect(replyOf(await c.call(i, 'resources/subscribe', { uri: `test://items/${id}` }))).toMatchObject({
      result: {},
    });
  }
  const over = replyOf(await c.call(10, 'resources/subscribe', { uri: 'test://items/4' }));
  expect(over.error).toMatchObject({ code: -32600, message: expect.stringContaining('maxSubscriptionsPerSession') });
  expect(replyOf(await c.call(11, 'resources/subscribe', { uri: 'test://items/1' }))).toMatchObject({ result: {} });
  expect(replyOf(await c.call(12, 'resources/unsubscribe', { uri: 'test://items/1' }))).toMatchObject({ result: {} });
  expect(replyOf(await c.call(13, 'resources/subscribe', { uri: 'test://items/4' }))).toMatchObject({ result: {} });
  // The cap is per session: another session starts empty.
  const other = await session();
  expect(replyOf(await other.call(1, 'resources/subscribe', { uri: 'test://items/9' }))).toMatchObject({ result: {} });
  expect(replyOf(await c.call(14, 'resources/read', { uri: 'test://readme' })).result.contents[0].text).toBe('read me');
});

test('a URI over maxUriLength is -32602 before template matching (legacy subscribe and read), then reads succeed', async () => {
  const c = await session();
  const long = 'test://items/' + 'a'.repeat(300);
  for (const method of ['resources/subscribe', 'resources/read']) {
    const r = replyOf(await c.call(method, method, { uri: long }));
    expect(r.error).toMatchObject({ code: -32602, message: expect.stringContaining('maxUriLength') });
    expect(r.error.message).not.toContain('aaaa'); // the URI is not echoed
  }
  expect(replyOf(await c.call(5, 'resources/read', { uri: 'test://items/ok' })).result.contents[0].text).toBe(
    'item ok',
  );
});

test('2026-07-28: a URI over maxUriLength is -32602, then reads succeed', async () => {
  const long = 'test://items/' + 'b'.repeat(300);
  const r = await modernPost(server.url, 1, 'resources/read', { uri: long });
  expect(r.json().error).toMatchObject({ code: -32602, message: expect.stringContaining('maxUriLength') });
  const ok = await modernPost(server.url, 2, 'resources/read', { uri: 'test://items/fine' });
  expect(ok.json().result.contents[0].text).toBe('item fine');
});

test('maxUriLength and maxSubscriptionsPerSession are validated options', () => {
  expect(() => ContextServerModule.configure({ maxUriLength: 10 })).toThrow(/maxUriLength/);
  expect(() => ContextServerModule.configure({ maxSubscriptionsPerSession: 0 })).toThrow(/maxSubscriptionsPerSession/);
});
