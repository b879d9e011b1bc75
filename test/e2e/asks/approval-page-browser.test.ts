/**
 * The approval page in a real browser: Debian's chromium, driven by playwright-core. The official v1
 * client without elicitation calls book_flight and gets a link; the browser reads the question and
 * confirms; the next call gets the passenger page, which the browser fills once with an invalid
 * email (the page shows the error) and then validly; the next call books, and the charge runs once.
 * The same with a client that declared URL-mode elicitation (the official v1 client on 2025-11-25, the
 * official v2 client on 2026-07-28): each page reaches it as a URL elicitation, which the host opens
 * in the browser; the person answers there and the one call completes.
 * Screenshots go to test-output/approval-page/ (ignored by git).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { serveHttp, type HttpServerHandle, type McpApplication } from 'onemodelcontext';
import { createTravelDesk } from '../../../sample-app/src/app';
import { BookingStore } from '../../../sample-app/src/catalog';

const CHROMIUM = '/usr/bin/chromium';
const OUT = join(__dirname, '../../../test-output/approval-page');
const APPROVAL = 'io.onemodelcontext/approval';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

type CallResult = { content: { text?: string }[]; _meta?: Record<string, any> };
const textOf = (r: CallResult) => r.content.map((c) => c.text ?? '').join('');

const suite = existsSync(CHROMIUM) ? describe : describe.skip;
if (!existsSync(CHROMIUM)) console.warn(`approval page browser test skipped: ${CHROMIUM} missing (scripts/install-debian.sh)`);

suite('approval page in headless chromium (book_flight, official v1 client without elicitation)', () => {
  let app: McpApplication;
  let server: HttpServerHandle;
  let browser: Browser;
  let client: LegacyClient;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    app = createTravelDesk();
    server = await serveHttp(app, { port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 60_000 });
    client = new LegacyClient({ name: 'web-host', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new LegacyTransport(new URL(server.url)));
  }, 90_000);
  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await server?.close();
  });

  const book = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: 'book_flight', arguments: args })) as CallResult;

  test('confirm, then the passenger form (invalid once), then the booking; one charge', async () => {
    const store = app.container.resolve(BookingStore);
    const before = store.charges;
    const page = await browser.newPage();
    // The strict CSP must not block anything the page itself uses (its one nonce'd style).
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) blocked.push(m.text());
    });

    const first = await book({ flightId: 'BER-VIE-128' });
    const { id, url } = first._meta?.[APPROVAL] as { id: string; url: string };
    expect(textOf(first)).toContain(url);
    await page.goto(url);
    expect(await page.textContent('#question')).toContain('Book BER → VIE');
    expect(await page.textContent('#arguments')).toContain('BER-VIE-128');
    await page.screenshot({ path: join(OUT, '1-confirm.png'), fullPage: true });
    await page.check('input[name="confirm"]');
    await Promise.all([page.waitForNavigation(), page.click('#accept')]);
    expect(await page.textContent('#done')).toContain('Your answer was recorded');
    await page.screenshot({ path: join(OUT, '2-confirmed.png'), fullPage: true });

    const second = await book({ flightId: 'BER-VIE-128', approvalId: id });
    const passengerUrl = (second._meta?.[APPROVAL] as { url: string }).url;
    await page.goto(passengerUrl);
    expect(await page.textContent('#question')).toContain('Who is travelling?');
    await page.fill('#f-fullName', 'Ada Lovelace');
    await page.fill('#f-email', 'not-an-email');
    await page.selectOption('#f-seat', 'aisle');
    await Promise.all([page.waitForNavigation(), page.click('#accept')]);
    expect(await page.textContent('#error')).toMatch(/email/i);
    // What the person typed is shown again.
    expect(await page.inputValue('#f-fullName')).toBe('Ada Lovelace');
    await page.screenshot({ path: join(OUT, '3-invalid-email.png'), fullPage: true });
    expect(store.charges - before).toBe(0);

    await page.fill('#f-email', 'ada@example.com');
    await Promise.all([page.waitForNavigation(), page.click('#accept')]);
    expect(await page.textContent('#done')).toContain('Your answer was recorded');
    await page.screenshot({ path: join(OUT, '4-passenger-recorded.png'), fullPage: true });

    const third = await book({ flightId: 'BER-VIE-128', approvalId: id });
    expect(textOf(third)).toMatch(/^Booked BER-VIE-128 for Ada Lovelace \(seat: aisle\)/);
    expect(store.charges - before).toBe(1);

    // The used link now shows a clear refusal.
    await page.goto(passengerUrl);
    expect(await page.textContent('#refused')).toContain('already answered');
    await page.screenshot({ path: join(OUT, '5-link-used.png'), fullPage: true });
    expect(blocked).toEqual([]);
    await page.close();
  }, 120_000);
});

interface UrlAsk {
  url: string;
  message: string;
  elicitationId?: string;
}

/** A host with URL mode: it opens each link in the browser and gives its consent at once. */
async function urlHost(era: 'legacy' | 'modern', url: string, open: (ask: UrlAsk) => void) {
  const completed: string[] = [];
  const capabilities = { elicitation: { url: {} } };
  if (era === 'legacy') {
    const client = new LegacyClient({ name: 'url-host-v1', version: '1.0.0' }, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      open(req.params as UrlAsk);
      return { action: 'accept' };
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      completed.push(n.params.elicitationId);
    });
    await client.connect(new LegacyTransport(new URL(url)));
    const book = async (args: Record<string, unknown>) =>
      (await client.callTool({ name: 'book_flight', arguments: args })) as CallResult;
    return { book, completed, close: () => client.close() };
  }
  const client = new ModernClient(
    { name: 'url-host-v2', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (req) => {
    open(req.params as unknown as UrlAsk);
    return { action: 'accept' } as never;
  });
  await client.connect(new ModernTransport(new URL(url)));
  const book = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: 'book_flight', arguments: args })) as CallResult;
  return { book, completed, close: () => client.close() };
}

suite.each([
  ['official v1 client, 2025-11-25', 'legacy'],
  ['official v2 client, 2026-07-28', 'modern'],
] as const)('approval pages by URL elicitation in headless chromium (book_flight, %s)', (_name, era) => {
  let app: McpApplication;
  let server: HttpServerHandle;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    app = createTravelDesk();
    server = await serveHttp(app, { port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 60_000 });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the host opens each link in the browser; the person answers; one call books; one charge', async () => {
    const store = app.container.resolve(BookingStore);
    const before = store.charges;
    const page = await browser.newPage();
    const shot = (name: string) => page.screenshot({ path: join(OUT, `url-${era}-${name}.png`), fullPage: true });
    const seen: UrlAsk[] = [];
    // The person, in the browser the host opened: one question at a time, in the order they come.
    let person: Promise<void> = Promise.resolve();
    const answer = async (ask: UrlAsk) => {
      await page.goto(ask.url);
      if (ask.message.includes('Who is travelling?')) {
        expect(await page.textContent('#question')).toContain('Who is travelling?');
        await page.fill('#f-fullName', 'Grace Hopper');
        await page.fill('#f-email', 'not-an-email');
        await page.selectOption('#f-seat', 'window');
        await Promise.all([page.waitForNavigation(), page.click('#accept')]);
        expect(await page.textContent('#error')).toMatch(/email/i);
        await shot('2-invalid-email');
        expect(store.charges - before).toBe(0);
        await page.fill('#f-email', 'grace@example.com');
      } else {
        expect(await page.textContent('#question')).toContain('Book BER → VIE');
        expect(await page.textContent('#arguments')).toContain('BER-VIE-128');
        await shot('1-confirm');
        await page.check('input[name="confirm"]');
      }
      await Promise.all([page.waitForNavigation(), page.click('#accept')]);
      expect(await page.textContent('#done')).toContain('Your answer was recorded');
    };
    const host = await urlHost(era, server.url, (ask) => {
      seen.push(ask);
      person = person.then(() => answer(ask));
    });
    try {
      const booked = await host.book({ flightId: 'BER-VIE-128' });
      await person;
      expect(textOf(booked)).toMatch(/^Booked BER-VIE-128 for Grace Hopper \(seat: window\)/);
      expect(booked._meta?.[APPROVAL]).toBeUndefined();
      expect(store.charges - before).toBe(1);
      expect(seen).toHaveLength(2);
      if (era === 'legacy') expect(host.completed).toEqual(seen.map((a) => a.elicitationId));
      // A used link shows a clear refusal.
      await page.goto(seen[1]!.url);
      expect(await page.textContent('#refused')).toContain('already answered');
      await shot('3-link-used');
    } finally {
      await host.close();
      await page.close();
    }
  }, 120_000);
});
