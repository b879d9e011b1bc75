/**
 * A legacy ask the server stops waiting for is cancelled at the client: on timeout, and when the
 * request that asked is cancelled, the server sends notifications/cancelled naming the ask's id
 * (2025-11-25 and 2025-06-18 HTTP sessions, on the asking request's stream).
 */
import { IsString } from 'class-validator';
import { Context, ContextServerModule, McpApplication, Tool } from '../../../../src';
import { silentLogger } from '../../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import { RawLegacyClient, streamingRequest } from '../../../helpers/http-fixtures';

class NameForm {
  @IsString() name!: string;
}
class Asking {
  @Tool({ description: 'Asks a name and waits for it', forms: [NameForm] })
  async ask(ctx: Context) {
    try {
      const r = await ctx.elicit(NameForm, 'Name?');
      return r.action;
    } catch (e) {
      return `gave up: ${(e as Error).message}`;
    }
  }
}

let server: HttpServerHandle;
beforeAll(async () => {
  const app = McpApplication.create({
    name: 'cancel',
    version: '1.0.0',
    providers: [Asking],
    modules: [ContextServerModule.configure({ logger: silentLogger, legacyAskTimeoutMs: 150 })],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close({ deadlineMs: 2000 }));

test.each(['2025-11-25', '2025-06-18'])('%s: an unanswered ask that times out is cancelled at the client', async (version) => {
  const c = new RawLegacyClient(server.url, version);
  await c.initialize({ elicitation: {} });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {} } });
  const r = await streamingRequest(server.url, { headers: c.headers(), body }, () => undefined);
  const ask = r.events.find((e) => e.method === 'elicitation/create');
  const cancel = r.events.find((e) => e.method === 'notifications/cancelled');
  expect(cancel).toEqual({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId: ask.id, reason: expect.stringMatching(/did not answer elicitation\/create/) },
  });
  const result = r.events.find((e) => e.id === 1).result;
  expect(result.content[0].text).toMatch(/gave up: .*did not answer/);
  expect(r.events.indexOf(cancel)).toBeLessThan(r.events.findIndex((e) => e.id === 1));
});

test('2025-11-25: when the client cancels the asking request, the pending ask is cancelled too and no response follows', async () => {
  const c = new RawLegacyClient(server.url, '2025-11-25');
  await c.initialize({ elicitation: {} });
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'ask', arguments: {}, _meta: {} },
  });
  let askId: unknown;
  const r = await streamingRequest(server.url, { headers: c.headers(), body }, (ev) => {
    if (ev.method === 'elicitation/create') {
      askId = ev.id;
      void c.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'user left' } });
    }
  });
  expect(askId).toBeDefined();
  expect(r.events.filter((e) => e.method === 'notifications/cancelled')).toEqual([
    {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: askId, reason: 'The request that asked was cancelled.' },
    },
  ]);
  expect(r.events.some((e) => e.id === 7)).toBe(false);
});
