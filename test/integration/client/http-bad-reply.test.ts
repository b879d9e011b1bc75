/**
 * The HTTP client transport fails a request at once on a malformed reply (OMC_CLIENT_BAD_REPLY),
 * like the stdio transport, instead of waiting for a timeout: the server below keeps its SSE
 * stream open after the bad reply, so only the transport's refusal can settle the request.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpTransport } from '../../../src/client/http/http-transport';
import type { JsonRpcRequest } from '../../../src/protocol/jsonrpc';

type Reply = (id: unknown, res: ServerResponse) => void;

const replies: Record<string, Reply> = {
  // An SSE stream that sends a malformed response (result and a non-object error) and stays open.
  sse: (id, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: 'not an object' })}\n\n`);
  },
  // A JSON body that is an object but not JSON-RPC 2.0.
  json: (id, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, result: {} }));
  },
};

describe('HttpTransport: malformed replies', () => {
  let server: Server;
  let url: string;
  const open = new Set<ServerResponse>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const message = JSON.parse(body) as { id: unknown; method: string };
        open.add(res);
        replies[message.method]!(message.id, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    for (const res of open) res.destroy();
    await new Promise((r) => server.close(r));
  });

  test.each(['sse', 'json'])('a malformed %s reply fails its request with OMC_CLIENT_BAD_REPLY', async (method) => {
    const transport = new HttpTransport({ url });
    await transport.start({
      notification: () => undefined,
      request: async () => ({ jsonrpc: '2.0', id: 0, result: {} }),
    });
    const request: JsonRpcRequest = { jsonrpc: '2.0', id: 7, method };
    try {
      await expect(transport.request(request, {})).rejects.toMatchObject({
        code: 'OMC_CLIENT_BAD_REPLY',
        message: expect.stringMatching(/reply to request 7 is malformed/),
      });
    } finally {
      await transport.close();
    }
  });
});
