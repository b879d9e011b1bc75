/** 2026-07-28 over HTTP: JSON and SSE replies, header ladder, status codes, cancellation, listen. */
import { request as httpRequest } from 'node:http';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import {
  JSON_HEADERS,
  leaveAfterFirstChunk,
  makeApp,
  MODERN,
  modernMeta,
  modernPost,
  parseSse,
  probe,
  rawRequest,
  trackProcessFaults,
  waitFor,
} from '../../../helpers/http-fixtures';

let server: HttpServerHandle;
let app: ReturnType<typeof makeApp>;
const faults = trackProcessFaults();

beforeAll(async () => {
  app = makeApp();
  server = await serveHttp(app, { port: 0 });
});
afterAll(async () => {
  await server.close({ deadlineMs: 2000 });
  faults.stop();
  expect(faults.faults).toEqual([]);
});

const ok = async () => {
  const r = await modernPost(server.url, 'ok', 'tools/call', { name: 'echo', arguments: { text: 'still alive' } });
  expect(r.status).toBe(200);
  expect(r.json().result.content[0].text).toBe('still alive');
};

test('server/discover and tools/list answer JSON with resultType', async () => {
  const d = await modernPost(server.url, 1, 'server/discover');
  expect(d.status).toBe(200);
  expect(d.headers['content-type']).toMatch(/^application\/json/);
  expect(d.json()).toMatchObject({ id: 1, result: { resultType: 'complete', supportedVersions: [MODERN] } });
  const l = await modernPost(server.url, 2, 'tools/list');
  expect(l.json().result.tools.map((t: { name: string }) => t.name)).toContain('echo');
});

test('progress switches the reply to SSE; the reply is the last event', async () => {
  const r = await modernPost(server.url, 3, 'tools/call', {
    name: 'slow',
    arguments: { steps: 3 },
    _meta: { progressToken: 'p' },
  });
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toBe('text/event-stream');
  expect(r.headers['x-accel-buffering']).toBe('no');
  const ev = r.events();
  expect(ev.slice(0, 3).map((e) => e.params.progress)).toEqual([1, 2, 3]);
  expect(ev[3]).toMatchObject({ id: 3, result: { content: [{ text: 'done 3' }] } });
  expect(r.text).not.toMatch(/^id:/m); // no resumability in 2026
});

test('MRTR input_required round trip over HTTP', async () => {
  const caps = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  const r1 = (
    await modernPost(server.url, 4, 'tools/call', { name: 'greet', arguments: { text: 'x' }, _meta: caps })
  ).json();
  expect(r1.result.resultType).toBe('input_required');
  const r2 = await modernPost(server.url, 5, 'tools/call', {
    name: 'greet',
    arguments: { text: 'x' },
    inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
    requestState: r1.result.requestState,
    _meta: caps,
  });
  expect(r2.json().result.content[0].text).toBe('Hello, Ada!');
});

describe('header ladder (400 / -32020, id echoed)', () => {
  const cases: Array<[string, Record<string, string>, Record<string, unknown>?]> = [
    ['missing version header', { 'MCP-Protocol-Version': '' }],
    ['version header differs from _meta', { 'MCP-Protocol-Version': '2025-11-25' }],
    ['missing Mcp-Method', { 'Mcp-Method': '' }],
    ['Mcp-Method differs', { 'Mcp-Method': 'tools/list' }],
    ['Mcp-Method case differs', { 'Mcp-Method': 'TOOLS/CALL' }],
    ['Mcp-Name differs', { 'Mcp-Name': 'other' }],
    ['Mcp-Name missing', { 'Mcp-Name': '' }],
    ['Mcp-Name bad base64 padding', { 'Mcp-Name': '=?base64?ZWNobw?=' }],
    ['Mcp-Name bad base64 chars', { 'Mcp-Name': '=?base64?ZW!!Nobw==?=' }],
  ];
  test.each(cases)('%s', async (_label, override) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(override)) headers[k] = v;
    const body = {
      jsonrpc: '2.0',
      id: 'h1',
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'a' }, _meta: modernMeta() },
    };
    const base: Record<string, string> = {
      ...JSON_HEADERS,
      'MCP-Protocol-Version': MODERN,
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'echo',
    };
    for (const [k, v] of Object.entries(headers)) {
      if (v === '') delete base[k];
      else base[k] = v;
    }
    const r = await rawRequest(server.url, { headers: base, body: JSON.stringify(body) });
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({ id: 'h1', error: { code: -32020 } });
    await ok();
  });

  test('v999 in both header and _meta → -32022 from the dispatcher; header ≠ v999 body → -32020', async () => {
    const body = (v: string) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'server/discover',
        params: { _meta: modernMeta({ 'io.modelcontextprotocol/protocolVersion': v }) },
      });
    const both = await rawRequest(server.url, {
      headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': 'v999.0.0', 'Mcp-Method': 'server/discover' },
      body: body('v999.0.0'),
    });
    expect(both.status).toBe(400);
    expect(both.json()).toMatchObject({ id: 9, error: { code: -32022, data: { requested: 'v999.0.0' } } });
    const mixed = await rawRequest(server.url, {
      headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'server/discover' },
      body: body('v999.0.0'),
    });
    expect(mixed.status).toBe(400);
    expect(mixed.json().error.code).toBe(-32020);
  });

  test('header names are case-insensitive, OWS trimmed, base64 decoded, odd wrappers literal', async () => {
    const good = await modernPost(
      server.url,
      10,
      'tools/call',
      { name: 'echo', arguments: { text: 'a' } },
      { 'mcp-name': '  =?base64?ZWNobw==?=  ' },
    );
    expect(good.status).toBe(200);
    const literal = await modernPost(
      server.url,
      11,
      'tools/call',
      { name: 'echo', arguments: { text: 'a' } },
      { 'Mcp-Name': '=?BASE64?ZWNobw==?=' },
    );
    expect(literal.status).toBe(400); // literal "=?BASE64?…" ≠ "echo"
  });

  test('Mcp-Param-* mirrors x-mcp-header arguments', async () => {
    const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
      modernPost(server.url, 12, 'tools/call', { name: 'regional', arguments: args }, headers);
    expect(
      (
        await call(
          { region: 'eu', level: 42, flag: true },
          { 'Mcp-Param-Region': 'eu', 'mcp-param-level': '42.0', 'Mcp-Param-Flag': 'true' },
        )
      ).status,
    ).toBe(200);
    expect((await call({ region: 'eu' }, {})).status).toBe(400); // header missing
    expect((await call({ region: 'eu' }, { 'Mcp-Param-Region': 'us' })).status).toBe(400);
    expect((await call({ level: 42 }, { 'Mcp-Param-Level': '43' })).status).toBe(400);
    expect((await call({ flag: true }, { 'Mcp-Param-Flag': 'TRUE' })).status).toBe(400);
    expect((await call({ region: 'eu' }, { 'Mcp-Param-Region': '=?base64?ZXU=?=' })).status).toBe(200);
    expect((await call({ region: 'eu' }, { 'Mcp-Param-Region': '=?base64?ZXU?=' })).json().error.code).toBe(-32020);
    expect((await call({ region: null }, {})).status).toBe(200); // null: no header expected
    expect((await call({}, {})).status).toBe(200);
    await ok();
  });
});

test('subscriptions/listen without _meta is 400/-32602 too', async () => {
  const noMeta = await rawRequest(server.url, {
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'subscriptions/listen' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 22, method: 'subscriptions/listen', params: { notifications: {} } }),
  });
  expect(noMeta.status).toBe(400);
  expect(noMeta.json()).toMatchObject({ id: 22, error: { code: -32602, message: expect.stringContaining('_meta') } });
});

test('status codes: unknown method 404/-32601, missing _meta 400/-32602, notification 202, response/batch 400', async () => {
  const unknown = await modernPost(server.url, 20, 'unknown/method');
  expect(unknown.status).toBe(404);
  expect(unknown.json()).toMatchObject({ id: 20, error: { code: -32601 } });
  const noMeta = await rawRequest(server.url, {
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'server/discover' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 21, method: 'server/discover', params: {} }),
  });
  expect(noMeta.status).toBe(400);
  expect(noMeta.json()).toMatchObject({ id: 21, error: { code: -32602 } });
  const note = await rawRequest(server.url, {
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN },
    body: JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, _meta: modernMeta() },
    }),
  });
  expect(note.status).toBe(202);
  expect(note.text).toBe('');
  const resp = await rawRequest(server.url, {
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }),
  });
  expect(resp.status).toBe(400);
  expect(resp.json().error.code).toBe(-32600);
  const batch = await rawRequest(server.url, {
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN },
    body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } }]),
  });
  expect(batch.status).toBe(400);
  expect(batch.json().error.code).toBe(-32600);
  await ok();
});

test('G8: a throwing tool is an isError result; closing the stream aborts the handler and nothing follows', async () => {
  const boom = await modernPost(server.url, 30, 'tools/call', { name: 'boom', arguments: { text: 'x' } });
  expect(boom.json().result.isError).toBe(true);

  const before = probe.aborted;
  // The first progress arrives: the client walks away.
  const received = await leaveAfterFirstChunk(
    server.url,
    { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'hang' },
    JSON.stringify({
      jsonrpc: '2.0',
      id: 31,
      method: 'tools/call',
      params: { name: 'hang', arguments: { text: 'x' }, _meta: { ...modernMeta(), progressToken: 't' } },
    }),
    100,
  );
  await waitFor(() => probe.aborted > before);
  const events = parseSse(received);
  expect(events).toHaveLength(1);
  expect(events[0].params.progress).toBe(1);
  await ok();
});

test('E6: content negotiation 415 / 406 / 405 with Allow', async () => {
  const plain = await rawRequest(server.url, {
    headers: { 'Content-Type': 'text/plain', Accept: 'application/json' },
    body: '{}',
  });
  expect(plain.status).toBe(415);
  const noAccept = await rawRequest(server.url, { headers: { 'Content-Type': 'application/json' }, body: '{}' });
  expect(noAccept.status).toBe(406);
  const get = await rawRequest(server.url, { method: 'GET', headers: { Accept: 'text/event-stream' } });
  expect(get.status).toBe(405);
  expect(get.headers.allow).toBe('POST');
  const del = await rawRequest(server.url, { method: 'DELETE' });
  expect(del.status).toBe(405);
  const put = await rawRequest(server.url, { method: 'PUT', headers: JSON_HEADERS, body: '{}' });
  expect(put.status).toBe(405);
  expect(put.headers.allow).toContain('POST');
  await ok();
});

test('subscriptions/listen: ack first, tagged list_changed, final result on shutdown', async () => {
  const listenApp = makeApp();
  const local = await serveHttp(listenApp, { port: 0 });
  const chunks: string[] = [];
  let ended = false;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 'listen-1',
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true }, _meta: modernMeta() },
  });
  const req = httpRequest(
    local.url,
    {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'subscriptions/listen' },
    },
    (res) => {
      res.on('data', (c: Buffer) => chunks.push(c.toString()));
      res.on('end', () => (ended = true));
    },
  );
  req.end(body);
  await waitFor(() => chunks.join('').includes('acknowledged'));
  listenApp.addTool({ name: 'added', description: 'x', handler: () => 'y' });
  await waitFor(() => chunks.join('').includes('list_changed'));
  await local.close({ deadlineMs: 1000 });
  await waitFor(() => ended);
  const ev = parseSse(chunks.join(''));
  expect(ev[0].method).toBe('notifications/subscriptions/acknowledged');
  expect(ev[1]).toMatchObject({
    method: 'notifications/tools/list_changed',
    params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
  });
  expect(ev[ev.length - 1]).toMatchObject({ id: 'listen-1', result: { resultType: 'complete' } });
});
