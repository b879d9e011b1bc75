/**
 * A fleet of bridges (scripts/fleet.sh: Redis, three instances of `onemodelcontext bridge --url`,
 * nginx) in front of one upstream written with the official v1 SDK. The upstream adds a tool at run
 * time and tells only the session that asked for it, as many servers do: every instance of the
 * fleet must still serve the new tool (each relists from its own upstream connection).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { call, Fleet, type Reply } from './fleet-harness';

jest.setTimeout(120_000);

/** The tools every upstream session lists: add_tool, and the ones added so far (shared by all sessions). */
const added: string[] = [];
const notified = new Set<string>();

function upstreamSession(): StreamableHTTPServerTransport {
  const capabilities = { tools: { listChanged: true } };
  const server = new Server({ name: 'shared-upstream', version: '1.0.0' }, { capabilities });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: ['add_tool', ...added].map((name) => ({ name, inputSchema: { type: 'object' as const } })),
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID });
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const name = req.params.name;
    if (name === 'add_tool') {
      added.push(String(req.params.arguments?.name));
      // Only the session that asked hears of it.
      notified.add(String(transport.sessionId));
      await extra.sendNotification({ method: 'notifications/tools/list_changed' });
      return { content: [{ type: 'text', text: 'added' }] };
    }
    if (added.includes(name)) return { content: [{ type: 'text', text: `dynamic ${name}` }] };
    return { content: [{ type: 'text', text: `no tool ${name}` }], isError: true };
  });
  void server.connect(transport);
  return transport;
}

let upstream: HttpServer;
let fleet: Fleet;
beforeAll(async () => {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  upstream = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const sid = req.headers['mcp-session-id'] as string | undefined;
    let transport = sid ? sessions.get(sid) : undefined;
    if (!transport) {
      if (body?.method !== 'initialize') return void res.writeHead(404).end();
      transport = upstreamSession();
      const opened = transport;
      opened.onclose = () => void sessions.delete(String(opened.sessionId));
    }
    await transport.handleRequest(req, res, body);
    if (transport.sessionId) sessions.set(transport.sessionId, transport);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  fleet = await Fleet.up({ FLEET_ENTRY: 'test/integration/fleet/fixtures/bridge-instance.cjs', UPSTREAM_URL: url });
}, 120_000);
afterAll(async () => {
  await fleet?.down();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
}, 60_000);

const text = (r: Reply): string | undefined => r.message?.result?.content?.[0]?.text;

test('a tool the upstream adds at run time, telling one instance only, is served by every instance', async () => {
  for (const n of [1, 2, 3] as const) {
    expect(text(await call(fleet.instanceUrl(n), { name: 'ghost' }))).not.toBe('dynamic ghost');
  }

  expect(text(await call(fleet.url, { name: 'add_tool', arguments: { name: 'ghost' } }))).toBe('added');
  expect(notified.size).toBe(1); // one instance's upstream session was told
  for (const n of [1, 2, 3] as const) {
    await fleet.until(`instance ${n} serves ghost`, async () =>
      text(await call(fleet.instanceUrl(n), { name: 'ghost' })) === 'dynamic ghost' ? true : undefined,
    );
  }
  const viaLb = await Promise.all(Array.from({ length: 12 }, () => call(fleet.url, { name: 'ghost' })));
  const served = viaLb.filter((r) => text(r) === 'dynamic ghost').length;
  const counts = { sent: viaLb.length, served, failed: viaLb.length - served, upstreamSessionsTold: notified.size };
  process.stderr.write(`bridge fleet, tool added upstream: ${JSON.stringify(counts)}\n`);
  expect(served).toBe(viaLb.length);
});
