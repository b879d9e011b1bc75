/**
 * book_flight's approvalPage fallback over real HTTP, for clients that cannot ask: the official v1
 * client (legacy) and the official v2 client (2026), both without elicitation. Each question is a
 * page; the person answers it there; the next call continues the same flow; the charge runs once.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { serveHttp, type HttpServerHandle, type McpApplication } from 'onemodelcontext';
import { createTravelDesk } from '../../../sample-app/src/app';
import { BookingStore } from '../../../sample-app/src/catalog';

const APPROVAL = 'io.onemodelcontext/approval';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

interface CallResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
  _meta?: Record<string, any>;
}
type Call = (args: Record<string, unknown>) => Promise<CallResult>;

const textOf = (r: CallResult) => r.content.map((c) => c.text ?? '').join('');

async function legacyCaller(url: string): Promise<{ call: Call; close: () => Promise<void> }> {
  const client = new LegacyClient({ name: 'web-host-v1', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new LegacyTransport(new URL(url)));
  return {
    call: async (args) => (await client.callTool({ name: 'book_flight', arguments: args })) as CallResult,
    close: () => client.close(),
  };
}

async function modernCaller(url: string): Promise<{ call: Call; close: () => Promise<void> }> {
  const client = new ModernClient(
    { name: 'web-host-v2', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new ModernTransport(new URL(url)));
  return {
    call: async (args) => (await client.callTool({ name: 'book_flight', arguments: args })) as CallResult,
    close: () => client.close(),
  };
}

describe.each([
  ['official v1 client, legacy, no elicitation', legacyCaller],
  ['official v2 client, 2026, no elicitation', modernCaller],
])('book_flight through approval pages: %s', (_name, connect) => {
  let app: McpApplication;
  let server: HttpServerHandle;

  beforeAll(async () => {
    app = createTravelDesk();
    server = await serveHttp(app, { port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  test('each question is a page; the calls continue the flow; the charge runs once', async () => {
    const store = app.container.resolve(BookingStore);
    const before = store.charges;
    const client = await connect(server.url);
    try {
      const first = await client.call({ flightId: 'BER-VIE-128' });
      const approval = first._meta?.[APPROVAL];
      expect(approval).toEqual({ id: expect.any(String), url: expect.any(String), expiresAt: expect.any(Number) });
      expect(textOf(first)).toContain(approval.url);
      expect(textOf(first)).toContain(`"approvalId": "${approval.id}"`);

      const page = await fetch(approval.url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await page.text()).toContain('Book BER → VIE');
      const confirm = 'confirm=true&_action=accept';
      const confirmed = await fetch(approval.url, { method: 'POST', headers: FORM, body: confirm });
      expect(confirmed.status).toBe(200);

      const second = await client.call({ flightId: 'BER-VIE-128', approvalId: approval.id });
      const passengerPage = second._meta?.[APPROVAL];
      expect(passengerPage.id).toBe(approval.id);
      const invalid = await fetch(passengerPage.url, {
        method: 'POST',
        headers: FORM,
        body: 'fullName=A&email=not-an-email&seat=aisle&_action=accept',
      });
      expect(invalid.status).toBe(422);
      expect(await invalid.text()).toContain('Please correct the form');
      const valid = await fetch(passengerPage.url, {
        method: 'POST',
        headers: FORM,
        body: new URLSearchParams({
          fullName: 'Ada Lovelace',
          email: 'ada@example.com',
          seat: 'aisle',
          _action: 'accept',
        }).toString(),
      });
      expect(valid.status).toBe(200);

      const third = await client.call({ flightId: 'BER-VIE-128', approvalId: approval.id });
      expect(textOf(third)).toMatch(/^Booked BER-VIE-128 for Ada Lovelace \(seat: aisle\)/);
      const repeat = await client.call({ flightId: 'BER-VIE-128', approvalId: approval.id });
      expect(textOf(repeat)).toBe(textOf(third));
      expect(store.charges - before).toBe(1);
    } finally {
      await client.close();
    }
  });
});
