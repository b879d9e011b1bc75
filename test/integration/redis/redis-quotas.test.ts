/**
 * Quotas counted across the fleet on a real redis-server: two apps with RedisModule on one Redis.
 * A listen stream over the fleet's per-principal share is acknowledged, then ended over SSE with
 * the local refusal's -32600; a legacy session over a principal's share is a 429 on the other
 * instance; every lease key expires; closing frees the slots for the fleet.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { ContextServerModule, McpApplication, serveHttp, type HttpServerHandle } from '../../../src';
import { RedisModule } from '../../../src/redis';
import { silentLogger } from '../../../src/server/core/server-logger';
import {
  JSON_HEADERS,
  MODERN,
  modernMeta,
  RawLegacyClient,
  rawRequest,
  TestTools,
  waitFor,
} from '../../helpers/http-fixtures';
import { expectEveryKeyExpires, useRedisServer } from './fixture';

const redis = useRedisServer();
const byHeader = ({ headers }: { headers?: Record<string, unknown> }) =>
  typeof headers?.['x-user'] === 'string' ? { id: headers['x-user'] } : undefined;

function instance(url: string, keyPrefix: string): McpApplication {
  return McpApplication.create({
    name: 'redis-quotas',
    version: '1.0.0',
    providers: [TestTools],
    modules: [
      ContextServerModule.configure({
        logger: silentLogger,
        authenticate: byHeader as never,
        maxListenStreamsPerPrincipal: 1,
      }),
      RedisModule.configure({ url, keyPrefix, connectTimeoutMs: 1000, commandTimeoutMs: 500 }),
    ],
  });
}

/** A listen stream over HTTP; `text()` is everything received so far. */
function listen(url: string, id: number, user: string): { text: () => string; req: ClientRequest } {
  let text = '';
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true }, _meta: modernMeta() },
  });
  const headers = {
    ...JSON_HEADERS,
    'MCP-Protocol-Version': MODERN,
    'Mcp-Method': 'subscriptions/listen',
    'X-User': user,
  };
  const req = httpRequest(url, { method: 'POST', headers }, (res) => {
    res.on('data', (c: Buffer) => (text += c.toString()));
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  req.end(body);
  return { text: () => text, req };
}

test('two instances on one Redis: listen streams and legacy sessions count across the fleet', async () => {
  const prefix = `q${Date.now()}:`;
  const [a, b] = [instance(redis.server().url, prefix), instance(redis.server().url, prefix)];
  let sa: HttpServerHandle | undefined;
  let sb: HttpServerHandle | undefined;
  try {
    [sa, sb] = await Promise.all([
      serveHttp(a, { port: 0, maxSessionsPerPrincipal: 1 }),
      serveHttp(b, { port: 0, maxSessionsPerPrincipal: 1 }),
    ]);
    const onA = listen(sa.url, 1, 'alice');
    await waitFor(() => onA.text().includes('acknowledged'));
    const onB = listen(sb.url, 2, 'alice'); // her first stream on B, her second in the fleet
    await waitFor(() => onB.text().includes('"error"'));
    expect(onB.text()).toContain('acknowledged');
    expect(onB.text()).toContain('-32600');
    expect(onB.text()).toContain('maxListenStreamsPerPrincipal');

    const s1 = new RawLegacyClient(sa.url, '2025-11-25', { 'X-User': 'alice' });
    expect((await s1.initialize()).status).toBe(200);
    const s2 = await new RawLegacyClient(sb.url, '2025-11-25', { 'X-User': 'alice' }).initialize();
    expect(s2.status).toBe(429);
    expect(s2.json().error.message).toContain('maxSessionsPerPrincipal');

    const inRedis = await redis.connect({ keyPrefix: prefix });
    await expectEveryKeyExpires(inRedis);
    const held = () => inRedis.command<number>(['ZCARD', inRedis.key('lease', 'listen:p:alice')]);
    expect(await held()).toBe(1);

    // Closing on A frees the slots for B.
    onA.req.destroy();
    expect((await rawRequest(sa.url, { method: 'DELETE', headers: s1.headers() })).status).toBe(200);
    let count = 1;
    await waitFor(() => {
      void held().then((n) => (count = n));
      return count === 0;
    });
    const again = listen(sb.url, 3, 'alice');
    await waitFor(() => again.text().includes('acknowledged'));
    expect((await new RawLegacyClient(sb.url, '2025-11-25', { 'X-User': 'alice' }).initialize()).status).toBe(200);
    expect(again.text()).not.toContain('"error"');
    again.req.destroy();
  } finally {
    await Promise.all([sa?.close({ deadlineMs: 500 }), sb?.close({ deadlineMs: 500 })]);
    await Promise.all([a.close(), b.close()]);
  }
});
