/**
 * Approval pages across a fleet: two travel-desk instances share one real redis-server through
 * RedisModule. A page linked by one instance is answered on the other, and the call continues on
 * whichever instance the caller reaches; the booking is charged once over both. With URL-mode
 * elicitation the call held on one instance reads the shared store until the page, answered on the
 * other, has its answer.
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
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
  await bookAcrossTheFleet();
});

// The last test shuts the fleet down (before the fixture's afterAll stops redis-server).
test('URL mode: the held call on one instance goes on when the page is answered on the other', async () => {
  try {
    await bookByUrlAcrossTheFleet();
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

async function bookByUrlAcrossTheFleet(): Promise<void> {
  const [a, b] = servers as [HttpServerHandle, HttpServerHandle];
  const charges = () => apps.reduce((n, app) => n + app.container.resolve(BookingStore).charges, 0);
  const before = charges();
  const client = new Client({ name: 'url-host-v1', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
  clients.push(client);
  const ids: string[] = [];
  const completed: string[] = [];
  const answered: Promise<number>[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    const { url, message, elicitationId } = req.params as { url: string; message: string; elicitationId: string };
    ids.push(elicitationId);
    const body = message.includes('Who is travelling?')
      ? new URLSearchParams({ fullName: 'Ada Lovelace', email: 'ada@example.com', seat: 'aisle', _action: 'accept' })
      : 'confirm=true&_action=accept';
    // The person answers on the other instance, after the host's consent.
    const post = { method: 'POST', headers: FORM, body: body.toString() };
    setImmediate(() => answered.push(fetch(onOther(url, b), post).then((r) => r.status)));
    return { action: 'accept' };
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
    completed.push(n.params.elicitationId);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(a.url)));
  const booked = (await client.callTool({ name: 'book_flight', arguments: { flightId: 'BER-VIE-128' } })) as Result;
  expect(text(booked)).toMatch(/^Booked BER-VIE-128 for Ada Lovelace \(seat: aisle\)/);
  expect(await Promise.all(answered)).toEqual([200, 200]);
  expect(completed).toEqual(ids);
  expect(charges() - before).toBe(1);
}
