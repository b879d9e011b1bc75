/**
 * 2026 `subscriptions/listen` and the guards (issue 31, N4), and what a stream keeps (N3): a caller
 * the guards refuse never receives updates of hidden resources (fixed or under a template), however
 * it subscribed; an allowed caller does; a filter whose URIs take more than maxSubscriptionUriBytes
 * is refused, and a legacy session's subscriptions are bounded the same way.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import {
  ContextServerModule,
  McpApplication,
  Resource,
  ResourceTemplate,
  serveHttp,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type HttpServerHandle,
} from '../../../../src';
import { silentLogger } from '../../../../src/server/core/server-logger';
import {
  JSON_HEADERS,
  MODERN,
  modernMeta,
  modernPost,
  parseSse,
  RawLegacyClient,
  replyOf,
  waitFor,
} from '../../../helpers/http-fixtures';

class NotMallory implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    return ctx.principal?.id !== 'mallory';
  }
}

class Docs {
  @Resource({ uri: 'public://doc', mimeType: 'text/plain' })
  open() {
    return 'open';
  }
  @Resource({ uri: 'hidden://doc', mimeType: 'text/plain' })
  @UseGuards(new NotMallory())
  doc() {
    return 'secret';
  }
  @ResourceTemplate({ uriTemplate: 'hidden://items/{id}', mimeType: 'text/plain' })
  @UseGuards(new NotMallory())
  item(vars: { id: string }) {
    return `item ${vars.id}`;
  }
}

const byHeader = ({ headers }: { headers?: Record<string, unknown> }) =>
  typeof headers?.['x-user'] === 'string' ? { id: headers['x-user'] } : undefined;

const app = McpApplication.create({
  name: 'listen-guards',
  version: '1.0.0',
  providers: [Docs],
  modules: [
    ContextServerModule.configure({
      logger: silentLogger,
      authenticate: byHeader as never,
      maxSubscriptionUriBytes: 4096,
    }),
  ],
});

interface Stream {
  events: () => Array<{ method?: string; params?: { uri?: string }; error?: { code: number; message: string } }>;
  req: ClientRequest;
}

function listen(url: string, user: string, uris: string[]): Promise<Stream> {
  return new Promise((resolve, reject) => {
    let text = '';
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: uris }, _meta: modernMeta() },
    });
    const headers = {
      ...JSON_HEADERS,
      'MCP-Protocol-Version': MODERN,
      'Mcp-Method': 'subscriptions/listen',
      'X-User': user,
    };
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.on('data', (c: Buffer) => {
        text += c.toString();
        const isJson = String(res.headers['content-type']).startsWith('application/json');
        resolve({ events: () => (isJson ? [JSON.parse(text)] : parseSse(text)), req });
      });
      res.on('error', () => undefined);
    });
    req.on('error', (e) => (text ? undefined : reject(e)));
    req.end(body);
  });
}

const updates = (s: Stream) =>
  s.events().filter((e) => e.method === 'notifications/resources/updated').map((e) => e.params?.uri);

let server: HttpServerHandle;
beforeAll(async () => {
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close({ deadlineMs: 1000 }));

test('a refused caller gets no update of a hidden resource; an allowed one does; public updates reach both', async () => {
  const uris = ['hidden://doc', 'hidden://items/', 'public://doc'];
  const mallory = await listen(server.url, 'mallory', uris);
  const ada = await listen(server.url, 'ada', uris);
  app.notifyResourceUpdated('hidden://doc');
  app.notifyResourceUpdated('hidden://items/42');
  app.notifyResourceUpdated('public://doc');
  await waitFor(() => updates(ada).length === 3 && updates(mallory).includes('public://doc'), 10_000);
  expect(updates(ada).sort()).toEqual(['hidden://doc', 'hidden://items/42', 'public://doc']);
  expect(updates(mallory)).toEqual(['public://doc']);
  // Legacy subscribe refuses the same URIs (the one check on both ways in).
  const legacy = new RawLegacyClient(server.url, '2025-11-25', { 'X-User': 'mallory' });
  await legacy.initialize();
  const sub = replyOf(await legacy.call(2, 'resources/subscribe', { uri: 'hidden://doc' }));
  expect(sub.error).toMatchObject({ code: -32002 });
  mallory.req.destroy();
  ada.req.destroy();
});

test('a filter whose URIs take more than maxSubscriptionUriBytes is refused; a small one from another caller is not', async () => {
  const many = Array.from({ length: 200 }, (_, i) => `public://doc/${'x'.repeat(20)}/${i}`);
  const refused = await listen(server.url, 'mallory', many);
  expect(refused.events()[0]!.error).toMatchObject({
    code: -32602,
    message: expect.stringContaining('maxSubscriptionUriBytes'),
  });
  const fine = await listen(server.url, 'ada', ['public://doc']);
  expect(fine.events()[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
  fine.req.destroy();
  expect((await modernPost(server.url, 2, 'resources/read', { uri: 'public://doc' })).status).toBe(200);
});

test('a legacy session holds at most maxSubscriptionUriBytes of subscribed URIs', async () => {
  const legacy = new RawLegacyClient(server.url, '2025-11-25', { 'X-User': 'mallory' });
  await legacy.initialize();
  let refusedAt = -1;
  for (let i = 0; i < 100; i++) {
    const r = replyOf(await legacy.call(i + 10, 'resources/subscribe', { uri: `hidden://items/${'y'.repeat(100)}-${i}` }));
    if (r.error) {
      expect(r.error.code).toBe(-32002); // hidden from mallory: not found, whatever the budget
      break;
    }
  }
  const ada = new RawLegacyClient(server.url, '2025-11-25', { 'X-User': 'ada' });
  await ada.initialize();
  for (let i = 0; i < 100; i++) {
    const r = replyOf(await ada.call(i + 10, 'resources/subscribe', { uri: `hidden://items/${'y'.repeat(100)}-${i}` }));
    if (r.error) {
      expect(r.error).toMatchObject({ code: -32600, message: expect.stringContaining('maxSubscriptionUriBytes') });
      refusedAt = i;
      break;
    }
  }
  expect(refusedAt).toBeGreaterThan(30);
  expect(refusedAt).toBeLessThan(40);
});
