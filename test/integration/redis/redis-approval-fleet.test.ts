/**
 * Approval pages across a fleet: two travel-desk instances share one real redis-server through
 * RedisModule. A page linked by one instance is answered on the other, and the call continues on
 * whichever instance the caller reaches; the booking is charged once over both.
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveHttp, type HttpServerHandle, type McpApplication } from '../../../src';
import { createTravelDesk } from '../../../sample-app/src/app';
import { BookingStore } from '../../../sample-app/src/catalog';
import { useRedisServer } from './fixture';

const APPROVAL = 'io.onemodelcontext/approval';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
type Result = { content: { text?: string }[]; _meta?: Record<string, { id: string; url: string }> };

const redis = useRedisServer();
const apps: McpApplication[] = [];
const servers: HttpServerHandle[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  const requestStateKey = randomBytes(32).toString('base64url');
  for (let i = 0; i < 2; i++) {
    const app = createTravelDesk({ requestStateKey, redisUrl: redis.server().url });
    apps.push(app);
    servers.push(await serveHttp(app, { port: 0 }));
  }
});

/** Before the fixture stops redis-server: clients, then servers, then the apps' Redis connections. */
async function shutDown(): Promise<void> {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close({ deadlineMs: 500 })));
  await Promise.all(apps.map((app) => app.close()));
}

async function caller(url: string): Promise<(args: Record<string, unknown>) => Promise<Result>> {
  const client = new Client({ name: 'web-host-v1', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return async (args) => (await client.callTool({ name: 'book_flight', arguments: args })) as Result;
}

/** The same page on the other instance: only the origin differs. */
function onOther(link: string, other: HttpServerHandle): string {
  const page = new URL(link);
  const target = new URL(other.url);
  page.host = target.host;
  return page.toString();
}

const text = (r: Result) => r.content.map((c) => c.text ?? '').join('');

test('a page linked by one instance is answered on the other; the call continues across both; one charge', async () => {
  try {
    await bookAcrossTheFleet();
  } finally {
    await shutDown();
  }
});

async function bookAcrossTheFleet(): Promise<void> {
  const [a, b] = servers as [HttpServerHandle, HttpServerHandle];
  const onA = await caller(a.url);
  const onB = await caller(b.url);
  const charges = () => apps.reduce((n, app) => n + app.container.resolve(BookingStore).charges, 0);

  const first = await onA({ flightId: 'BER-VIE-128' });
  const approval = first._meta?.[APPROVAL];
  expect(approval?.url.startsWith(a.url.replace(/\/mcp$/, ''))).toBe(true);
  const confirmPage = onOther(approval!.url, b);
  expect((await fetch(confirmPage)).status).toBe(200);
  const yes = { method: 'POST', headers: FORM, body: 'confirm=true&_action=accept' };
  expect((await fetch(confirmPage, yes)).status).toBe(200);
  // The link is used up on both instances.
  expect((await fetch(approval!.url, yes)).status).toBe(410);

  const second = await onB({ flightId: 'BER-VIE-128', approvalId: approval!.id });
  const passenger = second._meta?.[APPROVAL];
  expect(passenger?.id).toBe(approval!.id);
  const body = new URLSearchParams({
    fullName: 'Ada Lovelace',
    email: 'ada@example.com',
    seat: 'aisle',
    _action: 'accept',
  });
  const answered = await fetch(onOther(passenger!.url, a), { method: 'POST', headers: FORM, body: body.toString() });
  expect(answered.status).toBe(200);

  const third = await onA({ flightId: 'BER-VIE-128', approvalId: approval!.id });
  expect(text(third)).toMatch(/^Booked BER-VIE-128 for Ada Lovelace \(seat: aisle\)/);
  const repeat = await onB({ flightId: 'BER-VIE-128', approvalId: approval!.id });
  expect(text(repeat)).toBe(text(third));
  expect(charges()).toBe(1);
}
