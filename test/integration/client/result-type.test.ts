/**
 * 2026-07-28 (basic/index.mdx): a result whose resultType the client does not know MUST be
 * considered invalid. Driven against a scripted node:http server, since ours never sends one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContextClient } from '../../../src';

let server: Server;
let url: string;
let nextResultType: unknown;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const msg = JSON.parse(body);
      const meta = { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '0' } };
      const result =
        msg.method === 'server/discover'
          ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, _meta: meta }
          : {
              ...(nextResultType === undefined ? {} : { resultType: nextResultType }),
              content: [{ type: 'text', text: 'ok' }],
              _meta: meta,
            };
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test.each(['task', 'partial', 42, null])('an unknown resultType %p is an error, not a result', async (kind) => {
  const client = await ContextClient.connect({ url }, { protocolVersion: '2026-07-28' });
  nextResultType = kind;
  await expect(client.callTool('x', {})).rejects.toMatchObject({
    code: 'OMC_CLIENT_BAD_REPLY',
    message: expect.stringContaining('unknown resultType'),
  });
  await client.close();
});

test('complete, and an absent resultType (an older modern server), are results', async () => {
  const client = await ContextClient.connect({ url }, { protocolVersion: '2026-07-28' });
  for (const kind of ['complete', undefined]) {
    nextResultType = kind;
    expect((await client.callTool('x', {})).content).toEqual([{ type: 'text', text: 'ok' }]);
  }
  await client.close();
});
