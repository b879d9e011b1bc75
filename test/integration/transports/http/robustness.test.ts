/** Robustness: body limits (G1), malformed input corpus (G2), graceful shutdown (G7), socket resets (G9). */
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import {
  JSON_HEADERS,
  makeApp,
  modernMeta,
  modernPost,
  MODERN,
  probe,
  rawRequest,
  trackProcessFaults,
  waitFor,
} from '../../../helpers/http-fixtures';

let server: HttpServerHandle;
const faults = trackProcessFaults();

beforeAll(async () => {
  server = await serveHttp(makeApp(), { port: 0 });
});
afterAll(async () => {
  await server.close({ deadlineMs: 2000 });
  faults.stop();
  expect(faults.faults).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

const stillServes = async () => {
  const r = await modernPost(server.url, 'ok', 'tools/call', { name: 'echo', arguments: { text: 'alive' } });
  expect(r.status).toBe(200);
};

/** Sends raw bytes over a socket and returns the status line's code. */
function rawExchange(head: string, body: Buffer | string, opts: { chunked?: boolean } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let response = '';
    socket.on('data', (d) => {
      response += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(response);
      if (m) {
        resolve(Number(m[1]));
        socket.destroy();
      }
    });
    socket.on('error', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(response);
      if (m) resolve(Number(m[1]));
      else reject(new Error('socket error before a response'));
    });
    socket.write(head);
    if (opts.chunked) {
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 64 * 1024 * 1024 && !socket.destroyed) {
          sent += chunk.length;
          socket.write(`${chunk.length.toString(16)}\r\n`);
          socket.write(chunk);
          if (!socket.write('\r\n')) return void socket.once('drain', pump);
        }
      };
      pump();
    } else socket.write(body);
  });
}

test('G1: request headers over maxHeaderBytes (16 KiB) are 431, then normal calls are served', async () => {
  const big = 'x'.repeat(20 * 1024);
  const status = await rawExchange(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Padding: ${big}\r\nContent-Length: 2\r\n\r\n`,
    '{}',
  );
  expect(status).toBe(431);
  await stillServes();
  // The cap is an option: a larger one lets the same request through to the MCP layer.
  const roomy = await serveHttp(makeApp(), { port: 0, maxHeaderBytes: 64 * 1024 });
  try {
    const r = await modernPost(
      roomy.url,
      1,
      'tools/call',
      { name: 'echo', arguments: { text: 'fits' } },
      { 'X-Padding': big },
    );
    expect(r.json().result.content[0].text).toBe('fits');
  } finally {
    await roomy.close({ deadlineMs: 1000 });
  }
});

test('G1: Content-Length over 4 MiB is 413 before buffering; chunked oversize is 413 while streaming', async () => {
  const limit = 4 * 1024 * 1024;
  const declared = await rawExchange(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${limit + 1}\r\n\r\n`,
    '{',
  );
  expect(declared).toBe(413);
  const chunked = await rawExchange(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    '',
    { chunked: true },
  );
  expect(chunked).toBe(413);
  await stillServes();
});

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const corpus: Array<[string, string | Buffer]> = [
  ['empty body', ''],
  ['whitespace', '   '],
  ['truncated object', '{"jsonrpc":"2.0","id":1,"method":"tools/li'],
  ['truncated string', '{"jsonrpc":"2.0","id":1,"method":"'],
  ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
  [
    'lone continuation byte',
    Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"a'), Buffer.from([0x80]), Buffer.from('"}')]),
  ],
  ['BOM then JSON', '\uFEFF{"jsonrpc":"2.0","id":1,"method":"tools/list"}'],
  ['NaN', '{"jsonrpc":"2.0","id":NaN,"method":"tools/list"}'],
  ['1e400 id', '{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}'],
  ['Infinity', '{"jsonrpc":"2.0","id":Infinity,"method":"tools/list"}'],
  ['deep nesting 100000', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":${deep(100_000)}}}`],
  ['deep nesting 65', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":${deep(65)}}}`],
  [
    '__proto__ params',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","__proto__":{"polluted":1}}}}',
  ],
  [
    'constructor.prototype',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"constructor":{"prototype":{"polluted":1}}}}}',
  ],
  [
    '__proto__ in _meta',
    `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"__proto__":{"polluted":1}}}}`,
  ],
  ['number', '42'],
  ['string', '"hello"'],
  ['null', 'null'],
  ['true', 'true'],
  ['array of garbage', '[1,2,3]'],
  ['missing jsonrpc', '{"id":1,"method":"tools/list"}'],
  ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":1,"method":"tools/list"}'],
  ['Method uppercase key', '{"jsonrpc":"2.0","id":1,"Method":"tools/list"}'],
  ['method number', '{"jsonrpc":"2.0","id":1,"method":7}'],
  ['empty method', '{"jsonrpc":"2.0","id":1,"method":""}'],
  ['params array', '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}'],
  ['id object', '{"jsonrpc":"2.0","id":{},"method":"tools/list"}'],
  ['id null', '{"jsonrpc":"2.0","id":null,"method":"tools/list"}'],
  ['trailing garbage', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}xyz'],
  ['two objects', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}{"jsonrpc":"2.0","id":2,"method":"tools/list"}'],
  ['control chars', '{"jsonrpc":"2.0","id":1,"method":"tools/\u0000list"}'],
  [
    'modern claim not a string',
    `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":5}}}`,
  ],
  ['modern _meta not an object', `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":"x"}}`],
];

test.each(corpus)('G2: %s → a 4xx/2xx JSON-RPC answer, never a crash', async (_label, body) => {
  const r = await rawRequest(server.url, { headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': '2025-06-18' }, body });
  expect(r.status).toBeLessThan(500);
  if (r.status >= 400 && r.text) {
    const err = r.json();
    expect(err.jsonrpc).toBe('2.0');
    expect([-32700, -32600, -32602, -32601]).toContain(err.error.code);
  }
  await stillServes();
});

test('G2: parse error is 400/-32700 with id null', async () => {
  const r = await rawRequest(server.url, { headers: JSON_HEADERS, body: '{"jsonrpc":' });
  expect(r.status).toBe(400);
  expect(r.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
});

test('G9: 200 sockets reset mid-response; no crash, no unhandled rejection', async () => {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'slow', arguments: { steps: 3, delayMs: 2 }, _meta: { ...modernMeta(), progressToken: 1 } },
  });
  await Promise.all(Array.from({ length: 200 }, (_, i) => new Promise<void>((resolve) => {
    const req = httpRequest(
      server.url,
      {
        method: 'POST',
        headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'slow' },
      },
      (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', () => resolve());
    // Half of them die while still sending the body.
    if (i % 2) {
      req.write(body.slice(0, 10));
      setTimeout(() => req.destroy(), 1);
    } else req.end(body);
  })));
  await stillServes();
});

test('G7: graceful shutdown completes every in-flight call and refuses new ones', async () => {
  const local = await serveHttp(makeApp(), { port: 0 });
  const before = probe.completed;
  const startedBefore = probe.started;
  const calls = Array.from({ length: 50 }, (_, i) =>
    modernPost(local.url, i, 'tools/call', { name: 'slow', arguments: { steps: 4, delayMs: 50 } }),
  );
  // Shut down once every call is in its handler (a fixed sleep raced the requests still in transit).
  await waitFor(() => probe.started - startedBefore >= 50, 10_000);
  const closing = local.close({ deadlineMs: 5000 });
  const answers = await Promise.all(calls);
  await closing;
  expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
  expect(answers.every((a) => a.json().result.content[0].text === 'done 4')).toBe(true);
  expect(probe.completed - before).toBeGreaterThanOrEqual(50);
  await expect(modernPost(local.url, 99, 'tools/list')).rejects.toThrow();
});

test('G7: a request that arrives on an open connection while draining gets 503 + Connection: close, not a reset', async () => {
  const local = await serveHttp(makeApp(), { port: 0 });
  const startedBefore = probe.started;
  const inflight = modernPost(local.url, 1, 'tools/call', { name: 'slow', arguments: { steps: 4, delayMs: 50 } });
  await waitFor(() => probe.started > startedBefore);
  const socket = connect(local.port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  const connections = () => new Promise<number>((r) => local.server.getConnections((_e, n) => r(n)));
  let open = 0;
  await waitFor(() => (void connections().then((n) => (open = n)), open >= 2));
  const closing = local.close({ deadlineMs: 5000 });
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  const ended = new Promise<string | undefined>((r) => {
    socket.once('error', (e: NodeJS.ErrnoException) => r(e.code));
    socket.once('close', () => r(undefined));
  });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: modernMeta() } });
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${local.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `MCP-Protocol-Version: ${MODERN}\r\nMcp-Method: tools/list\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  expect(await ended).toBeUndefined();
  expect(received).toMatch(/^HTTP\/1\.1 503/);
  expect(received.toLowerCase()).toContain('connection: close');
  expect((await inflight).json().result.content[0].text).toBe('done 4');
  await closing;
});

test('G7: shutdown past its deadline aborts stuck handlers and still exits', async () => {
  const local = await serveHttp(makeApp(), { port: 0 });
  const stuck = modernPost(local.url, 1, 'tools/call', { name: 'hang', arguments: { text: 'x' } }).catch(
    () => undefined,
  );
  await new Promise((r) => setTimeout(r, 50));
  const started = Date.now();
  await local.close({ deadlineMs: 300 });
  expect(Date.now() - started).toBeLessThan(3000);
  await stuck;
});
