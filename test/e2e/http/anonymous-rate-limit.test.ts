/**
 * Issue 31: with `anonymousKey: 'clientAddress'`, one anonymous client exhausting its bucket does not
 * refuse another address (real HTTP, clients bound to 127.0.0.2 and 127.0.0.3); the default still
 * shares one bucket; X-Forwarded-For counts only from a `trustedProxies` peer.
 */
import { request as httpRequest } from 'node:http';
import { ContextServerModule, McpApplication, RateLimit, Tool, UseGuards } from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { JSON_HEADERS, MODERN, modernMeta, trackProcessFaults } from '../../helpers/http-fixtures';

class Limited {
  @Tool({ description: 'one call per hour per anonymous client address' })
  @UseGuards(RateLimit({ capacity: 1, refillPerSecond: 1 / 3600, anonymousKey: 'clientAddress' }))
  perAddress() {
    return 'ok';
  }
  @Tool({ description: 'one call per hour for all anonymous callers' })
  @UseGuards(RateLimit({ capacity: 1, refillPerSecond: 1 / 3600 }))
  shared() {
    return 'ok';
  }
}

const faults = trackProcessFaults();
let direct: HttpServerHandle;
let proxied: HttpServerHandle;

function makeApp(): McpApplication {
  return McpApplication.create({
    name: 'anonymous-rate-limit',
    version: '1.0.0',
    providers: [Limited],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
}

beforeAll(async () => {
  direct = await serveHttp(makeApp(), { port: 0 });
  proxied = await serveHttp(makeApp(), { port: 0, trustedProxies: ['127.0.0.1'] });
});
afterAll(async () => {
  await direct.close({ deadlineMs: 2000 });
  await proxied.close({ deadlineMs: 2000 });
  faults.stop();
  expect(faults.faults).toEqual([]);
});

/** A 2026 tools/call from a given local address; resolves to the JSON-RPC error code, or 'ok'. */
function call(url: string, tool: string, from: string, headers: Record<string, string> = {}): Promise<unknown> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: tool, arguments: {}, _meta: modernMeta() },
  });
  const h = {
    ...JSON_HEADERS,
    'MCP-Protocol-Version': MODERN,
    'Mcp-Method': 'tools/call',
    'Mcp-Name': tool,
    ...headers,
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: h, localAddress: from }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: { code: number } };
        resolve(reply.error ? reply.error.code : 'ok');
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

test("anonymousKey 'clientAddress': one client's exhausted bucket does not refuse another address", async () => {
  expect(await call(direct.url, 'perAddress', '127.0.0.2')).toBe('ok');
  expect(await call(direct.url, 'perAddress', '127.0.0.2')).toBe(-32000);
  expect(await call(direct.url, 'perAddress', '127.0.0.3')).toBe('ok');
  // Without trustedProxies a forged X-Forwarded-For changes nothing.
  expect(await call(direct.url, 'perAddress', '127.0.0.2', { 'X-Forwarded-For': '203.0.113.9' })).toBe(-32000);
});

test('the default still shares one bucket among anonymous callers', async () => {
  expect(await call(direct.url, 'shared', '127.0.0.4')).toBe('ok');
  expect(await call(direct.url, 'shared', '127.0.0.5')).toBe(-32000);
});

test('behind a trusted proxy, the right-most untrusted X-Forwarded-For hop is the client', async () => {
  const via = (xff: string) => call(proxied.url, 'perAddress', '127.0.0.1', { 'X-Forwarded-For': xff });
  expect(await via('198.51.100.1')).toBe('ok');
  expect(await via('198.51.100.1')).toBe(-32000);
  // A client-written left-hand entry proves nothing: the hop the proxy saw is what counts.
  expect(await via('203.0.113.7, 198.51.100.1')).toBe(-32000);
  expect(await via('198.51.100.2')).toBe('ok');
  // A request from a peer that is not a trusted proxy is keyed by that peer, whatever it forwards.
  expect(await call(proxied.url, 'perAddress', '127.0.0.6', { 'X-Forwarded-For': '198.51.100.3' })).toBe('ok');
  expect(await call(proxied.url, 'perAddress', '127.0.0.6', { 'X-Forwarded-For': '198.51.100.4' })).toBe(-32000);
});
