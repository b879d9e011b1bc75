/** 2026-07-28: a sampling ask carries `includeContext` only to a client that declared `sampling.context`. */
import { Context, ContextServerModule, McpApplication, Tool } from '../../../../src';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import { silentLogger } from '../../../../src/server/core/server-logger';
import { modernPost } from '../../../helpers/http-fixtures';

class Summariser {
  @Tool({ description: 'Asks the client model, with this server context' })
  async summarise(ctx: Context) {
    const r = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Sum up' } }],
      includeContext: 'thisServer',
    });
    return r.model;
  }
}

let server: HttpServerHandle;
beforeAll(async () => {
  const app = McpApplication.create({
    name: 'ic',
    version: '1',
    providers: [Summariser],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close());

const ask = async (sampling: Record<string, unknown>) => {
  const r = await modernPost(server.url, 1, 'tools/call', {
    name: 'summarise',
    arguments: {},
    _meta: { 'io.modelcontextprotocol/clientCapabilities': { sampling } },
  });
  return r.json().result.inputRequests['sampling-1'].params;
};

test('without sampling.context the ask leaves includeContext out', async () => {
  const params = await ask({});
  expect(params).not.toHaveProperty('includeContext');
  expect(params.messages).toHaveLength(1);
});

test('with sampling.context it is sent', async () => {
  expect((await ask({ context: {} })).includeContext).toBe('thisServer');
});
