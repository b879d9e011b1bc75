/**
 * book_flight's approval pages reached by URL-mode elicitation, over real HTTP: a client that
 * declared `elicitation.url` is sent each page's link as `elicitation/create` (mode `url`) instead of
 * a tool result with the link. The person answers the page; the call goes on with that answer
 * (legacy: the held call, then `notifications/elicitation/complete` with the elicitationId; 2026:
 * the client's retry finds it). Clients: the official v1 client, the official v2 client, ours on
 * both eras. The charge runs once.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { connectTestClient, serveHttp, type HttpServerHandle, type McpApplication } from 'onemodelcontext';
import { createTravelDesk } from '../../../sample-app/src/app';
import { BookingStore } from '../../../sample-app/src/catalog';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PASSENGER = new URLSearchParams({
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  seat: 'aisle',
  _action: 'accept',
}).toString();

interface UrlAsk {
  mode?: string;
  url: string;
  message: string;
  elicitationId?: string;
}

/** The person: opens the link and answers the question it shows. */
async function answerPage(ask: UrlAsk): Promise<void> {
  const body = ask.message.includes('Who is travelling?') ? PASSENGER : 'confirm=true&_action=accept';
  const res = await fetch(ask.url, { method: 'POST', headers: FORM, body });
  if (res.status !== 200) throw new Error(`page answered ${res.status}: ${await res.text()}`);
}

/**
 * How the host gives its consent: `after` returns accept at once and the person answers later
 * (the server waits for the page); `before` lets the person answer first, then returns accept.
 */
type Timing = 'before' | 'after';
function consent(timing: Timing, seen: UrlAsk[]) {
  return async (ask: UrlAsk) => {
    seen.push(ask);
    if (timing === 'before') await answerPage(ask);
    else setImmediate(() => void answerPage(ask));
    return { action: 'accept' as const };
  };
}

interface Host {
  book: (args: Record<string, unknown>) => Promise<{ text: string; meta?: Record<string, unknown> }>;
  seen: UrlAsk[];
  completed: string[];
  close: () => Promise<void>;
}
type Connect = (url: string) => Promise<Host>;

const textOf = (r: any): string => r.content.map((c: { text?: string }) => c.text ?? '').join('');

/** Official v1 client, 2025-11-25, URL mode only (approval-host-matrix.test.ts has form + URL hosts). */
const officialV1: Connect = async (url) => {
  const seen: UrlAsk[] = [];
  const completed: string[] = [];
  const host = { seen, completed } as Host;
  const capabilities = { elicitation: { url: {} } };
  const client = new LegacyClient({ name: 'v1-url-host', version: '1' }, { capabilities });
  const onUrl = consent('after', seen);
  client.setRequestHandler(ElicitRequestSchema, async (req) => onUrl(req.params as UrlAsk));
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
    completed.push(n.params.elicitationId);
  });
  await client.connect(new LegacyTransport(new URL(url)));
  host.book = async (args) => {
    const r = await client.callTool({ name: 'book_flight', arguments: args });
    return { text: textOf(r), meta: r._meta as Record<string, unknown> | undefined };
  };
  host.close = () => client.close();
  return host;
};

const officialV2: Connect = async (url) => {
  const seen: UrlAsk[] = [];
  const client = new ModernClient(
    { name: 'v2-url-host', version: '1' },
    { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const onUrl = consent('before', seen);
  client.setRequestHandler('elicitation/create', (req) => onUrl(req.params as unknown as UrlAsk) as never);
  await client.connect(new ModernTransport(new URL(url)));
  return {
    seen,
    completed: [],
    book: async (args) => {
      const r = await client.callTool({ name: 'book_flight', arguments: args });
      return { text: textOf(r), meta: r._meta as Record<string, unknown> | undefined };
    },
    close: () => client.close(),
  };
};

const ours = (era: '2026-07-28' | '2025-11-25', timing: Timing): Connect => async (url) => {
  const seen: UrlAsk[] = [];
  const onUrl = consent(timing, seen);
  const kit = await connectTestClient(
    { url },
    { era, declare: ['urlElicitation'], answers: { urlElicitation: (p: UrlAsk) => onUrl(p) } as never },
  );
  return {
    seen,
    completed: [],
    book: async (args) => {
      const run = await kit.callTool('book_flight', args as never);
      return { text: run.text, meta: run.result._meta as Record<string, unknown> | undefined };
    },
    close: () => kit.close(),
  };
};

describe.each([
  ['official v1 client, legacy, url mode', officialV1, 'legacy'],
  ['official v2 client, 2026, url mode', officialV2, 'modern'],
  ['our client, 2026-07-28, consent then the page', ours('2026-07-28', 'before'), 'modern'],
  ['our client, 2026-07-28, the page after consent (the retry waits)', ours('2026-07-28', 'after'), 'modern'],
  ['our client, 2025-11-25', ours('2025-11-25', 'after'), 'legacy'],
])('book_flight by URL elicitation: %s', (name, connect, era) => {
  // A travel desk per client: the flight has a few seats, and each booking takes one.
  let app: McpApplication;
  let server: HttpServerHandle;
  beforeAll(async () => {
    app = createTravelDesk();
    server = await serveHttp(app, { port: 0 });
  });
  afterAll(() => server.close({ deadlineMs: 1000 }));

  test('each question is a URL elicitation of its page; the call completes; the charge runs once', async () => {
    const store = app.container.resolve(BookingStore);
    const before = store.charges;
    const host = await connect(server.url);
    try {
      const booked = await host.book({ flightId: 'BER-VIE-128' });
      expect(booked.text).toMatch(/^Booked BER-VIE-128 for Ada Lovelace \(seat: aisle\)/);
      expect(booked.meta?.['io.onemodelcontext/approval']).toBeUndefined();
      expect(store.charges - before).toBe(1);

      expect(host.seen).toHaveLength(2);
      for (const ask of host.seen) expect(ask.url.startsWith(`${server.url}/approval/`)).toBe(true);
      expect(host.seen[0]!.message).toContain('Book BER → VIE');
      expect(host.seen[1]!.message).toContain('Who is travelling?');
      if (era === 'legacy') {
        const ids = host.seen.map((a) => a.elicitationId);
        expect(ids.every((id) => typeof id === 'string')).toBe(true);
        if (name.startsWith('official')) expect(host.completed).toEqual(ids);
      } else {
        expect(host.seen.every((a) => a.elicitationId === undefined)).toBe(true);
      }

      // Each link worked once.
      for (const ask of host.seen) expect((await fetch(ask.url)).status).toBe(410);
    } finally {
      await host.close();
    }
  });
});
