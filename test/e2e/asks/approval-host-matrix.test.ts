/**
 * The approvalPage fallback (and deny / argument for clients with URL mode only) against every
 * client kind and host behaviour, table-driven: the official v1 client (2025-11-25), the official v2
 * client (2026-07-28), ours on both eras; each declaring no elicitation, form mode, URL mode or
 * both; hosts that auto-decline in 5 ms, never answer, consent to a URL but never answer its page.
 * Every outcome is the declared one: the question is answered (form mode, or its page by URL
 * elicitation) or the call ends with the page's link, which a later call continues; nothing waits
 * past its deadline; the effects before and after the question run once. host-behaviours.test.ts
 * covers deny / argument for the other capability sets.
 */
import 'reflect-metadata';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import {
  Context,
  ContextServerModule,
  McpApplication,
  Tool,
  connectTestClient,
  serveHttp,
  type HttpServerHandle,
} from 'onemodelcontext';
import { modernPost, replyOf } from '../../helpers/http-fixtures';

const APPROVAL = 'io.onemodelcontext/approval';
const runs = { hold: 0, charge: 0, wiped: 0, purged: 0 };
const reasons = (ctx: Context) => ctx.notShown.map((n) => n.reason).join(',') || 'the user said no';

class Desk {
  @Tool({ asks: { kinds: ['confirm'], fallback: 'approvalPage' } })
  async reserve(ctx: Context) {
    const hold = await ctx.once('hold', () => `hold-${++runs.hold}`);
    if (!(await ctx.confirm('Reserve the room?', { key: 'reserve' }))) return `not reserved (${reasons(ctx)})`;
    const charge = await ctx.once('charge', () => `charge-${++runs.charge}`);
    return `reserved ${hold} ${charge}`;
  }

  /** Two questions: after the first went to a page, the second is asked in form mode again. */
  @Tool({ asks: { kinds: ['confirm'], fallback: 'approvalPage' } })
  async trip(ctx: Context) {
    if (!(await ctx.confirm('Go?', { key: 'go' }))) return `stayed (${reasons(ctx)})`;
    if (!(await ctx.confirm('Pay?', { key: 'pay' }))) return `unpaid (${reasons(ctx)})`;
    return `paid ${await ctx.once('charge', () => `charge-${++runs.charge}`)}`;
  }

  /** The handler's own URL (another site's flow): no page can stand in for it. */
  @Tool({ asks: { kinds: ['elicitUrl'], fallback: 'approvalPage' } })
  async signIn(ctx: Context) {
    const r = await ctx.elicitUrl('https://auth.example.com/start', 'Sign in to the provider', { key: 'auth' });
    return `${r.action} (${reasons(ctx)})`;
  }

  @Tool({ asks: { kinds: ['confirm'], fallback: 'deny' } })
  async wipe(ctx: Context) {
    return (await ctx.confirm('Wipe the disk?', { key: 'wipe' })) ? `wiped ${++runs.wiped}` : `kept (${reasons(ctx)})`;
  }

  @Tool({ asks: { kinds: ['confirm'], fallback: 'argument' } })
  async purge(ctx: Context) {
    const ok = await ctx.confirm('Purge the cache?', { key: 'purge' });
    return ok ? `purged ${++runs.purged}` : `not purged (${reasons(ctx)})`;
  }
}

/**
 * `minDeclineMs` high: any decline a program sends is instant (no clock in the assertions). The
 * answer deadline is short only where a case waits for it to pass; elsewhere it is a safety net.
 */
function makeApp(minDeclineMs: number, answerDeadlineMs: number, retryHoldMs?: number) {
  return McpApplication.create({
    name: 'desk',
    version: '1.0.0',
    providers: [Desk],
    modules: [
      ContextServerModule.configure({
        asks: { minDeclineMs, answerDeadlineMs, ...(retryHoldMs ? { retryHoldMs } : {}) },
        // Every 2026 round that still asks runs twice: the fallback's rounds must pass the linter too.
        replayLint: 'error',
        logger: { warn: () => undefined, error: () => undefined },
      }),
    ],
  });
}

/** What the host does with a form question, and with a URL elicitation. */
type FormHost = 'accept' | 'decline-5ms' | 'never';
type UrlHost = 'consent-and-answer' | 'answer-then-consent' | 'consent-only' | 'decline-5ms' | 'decline' | 'never';
interface HostBehaviour {
  form?: FormHost;
  url?: UrlHost;
}
type ElicitResult = { action: 'accept' | 'decline'; content?: Record<string, unknown> };

const later = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms));
const NEVER = () => new Promise<never>(() => undefined);

function answerForm(h: FormHost): Promise<ElicitResult> {
  if (h === 'accept') return Promise.resolve({ action: 'accept', content: { confirm: true } });
  return h === 'decline-5ms' ? later(5, { action: 'decline' }) : NEVER();
}

/** The person answers the page the link opens (confirming). */
async function answerPage(url: string): Promise<number> {
  const body = 'confirm=true&_action=accept';
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const res = await fetch(url, { method: 'POST', headers, body });
  return res.status;
}

function answerUrl(h: UrlHost, url: string, seen: string[]): Promise<ElicitResult> {
  seen.push(url);
  switch (h) {
    case 'consent-and-answer':
      setImmediate(() => void answerPage(url));
      return Promise.resolve({ action: 'accept' });
    case 'answer-then-consent':
      return answerPage(url).then(() => ({ action: 'accept' }));
    case 'consent-only':
      return Promise.resolve({ action: 'accept' });
    case 'decline-5ms':
      return later(5, { action: 'decline' });
    case 'decline':
      return Promise.resolve({ action: 'decline' });
    case 'never':
      return NEVER();
  }
}

interface Reply {
  text: string;
  meta?: Record<string, any>;
}
interface Host {
  call(name: string, args?: Record<string, unknown>): Promise<Reply>;
  /** URL elicitations received. */
  urls: string[];
  close(): Promise<void>;
}
type Connect = (server: string, h: HostBehaviour) => Promise<Host>;

const textOf = (r: any): string => r.content.map((c: { text?: string }) => c.text ?? '').join('');
const modeOf = (params: unknown) => (params as { mode?: string }).mode;

function elicitationCaps(h: HostBehaviour): Record<string, unknown> {
  const caps: Record<string, unknown> = {};
  if (h.form) caps.form = {};
  if (h.url) caps.url = {};
  return h.form || h.url ? { elicitation: caps } : {};
}

function answerAny(h: HostBehaviour, urls: string[]) {
  return (params: unknown): Promise<ElicitResult> =>
    modeOf(params) === 'url'
      ? answerUrl(h.url!, (params as { url: string }).url, urls)
      : answerForm(h.form!);
}

const officialV1: Connect = async (server, h) => {
  const urls: string[] = [];
  const client = new LegacyClient({ name: 'v1-host', version: '1' }, { capabilities: elicitationCaps(h) });
  if (h.form || h.url) client.setRequestHandler(ElicitRequestSchema, (req) => answerAny(h, urls)(req.params) as never);
  await client.connect(new LegacyTransport(new URL(server)));
  return {
    urls,
    call: async (name, args = {}) => {
      const r = await client.callTool({ name, arguments: args });
      return { text: textOf(r), meta: r._meta as Record<string, any> };
    },
    close: () => client.close(),
  };
};

const officialV2: Connect = async (server, h) => {
  const urls: string[] = [];
  const client = new ModernClient(
    { name: 'v2-host', version: '1' },
    { capabilities: elicitationCaps(h), versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  if (h.form || h.url) client.setRequestHandler('elicitation/create', (req) => answerAny(h, urls)(req.params) as never);
  await client.connect(new ModernTransport(new URL(server)));
  return {
    urls,
    call: async (name, args = {}) => {
      const r = await client.callTool({ name, arguments: args });
      return { text: textOf(r), meta: r._meta as Record<string, any> };
    },
    close: () => client.close(),
  };
};

const ours = (era: '2026-07-28' | '2025-11-25'): Connect => async (server, h) => {
  const urls: string[] = [];
  const declare = [...(h.form ? ['elicitation'] : []), ...(h.url ? ['urlElicitation'] : [])];
  const answer = answerAny(h, urls);
  const kit = await connectTestClient(
    { url: server },
    { era, declare: declare as never, answers: { elicitation: answer, urlElicitation: answer } as never },
  );
  return {
    urls,
    call: async (name, args = {}) => {
      const run = await kit.callTool(name, args as never);
      return { text: run.text, meta: run.result._meta as Record<string, any> };
    },
    close: () => kit.close(),
  };
};

const CLIENTS: [string, Connect, 'legacy' | 'modern'][] = [
  ['official v1 client (2025-11-25)', officialV1, 'legacy'],
  ['official v2 client (2026-07-28)', officialV2, 'modern'],
  ['our client, 2026-07-28', ours('2026-07-28'), 'modern'],
  ['our client, 2025-11-25', ours('2025-11-25'), 'legacy'],
];

/**
 * approvalPage: `answered` — the call completes in this call (form mode, or the page by URL);
 * `link` — it ends with the page's link and a later call continues; `declined` — a person said no.
 * `url`: how many URL elicitations the host got. `legacyOnly`: a 2026 host that never answers simply
 * never retries (the raw test below).
 */
const CASES: { name: string; host: HostBehaviour; outcome: 'answered' | 'link' | 'declined'; url: number;
  server?: 'quick' | 'human'; legacyOnly?: boolean }[] = [
  { name: 'no elicitation capability', host: {}, outcome: 'link', url: 0 },
  { name: 'form mode, answered', host: { form: 'accept' }, outcome: 'answered', url: 0 },
  { name: 'form mode, auto-declined in 5 ms', host: { form: 'decline-5ms' }, outcome: 'link', url: 0 },
  {
    name: 'form mode, never answered',
    host: { form: 'never' },
    outcome: 'link',
    url: 0,
    server: 'quick',
    legacyOnly: true,
  },
  { name: 'URL mode, consent and the page answered', host: { url: 'consent-and-answer' }, outcome: 'answered', url: 1 },
  {
    name: 'form auto-declined in 5 ms, then URL mode answered',
    host: { form: 'decline-5ms', url: 'consent-and-answer' },
    outcome: 'answered',
    url: 1,
  },
  {
    name: 'form never answered, then URL mode answered',
    host: { form: 'never', url: 'answer-then-consent' },
    outcome: 'answered',
    url: 1,
    server: 'quick',
    legacyOnly: true,
  },
  { name: 'URL mode auto-declined in 5 ms', host: { url: 'decline-5ms' }, outcome: 'link', url: 1 },
  {
    name: 'URL mode never answered',
    host: { url: 'never' },
    outcome: 'link',
    url: 1,
    server: 'quick',
    legacyOnly: true,
  },
  {
    name: 'URL consent, the page never answered',
    host: { url: 'consent-only' },
    outcome: 'link',
    url: 1,
    server: 'quick',
  },
  { name: 'URL mode declined by a person', host: { url: 'decline' }, outcome: 'declined', url: 1, server: 'human' },
];

let instant: HttpServerHandle;
let quick: HttpServerHandle;
let human: HttpServerHandle;
let holding: HttpServerHandle;
let holdingLonger: HttpServerHandle;
beforeAll(async () => {
  instant = await serveHttp(makeApp(60_000, 60_000), { port: 0 });
  quick = await serveHttp(makeApp(60_000, 1000), { port: 0 });
  human = await serveHttp(makeApp(0, 60_000), { port: 0 });
  holding = await serveHttp(makeApp(60_000, 60_000, 50), { port: 0 });
  holdingLonger = await serveHttp(makeApp(60_000, 60_000, 1000), { port: 0 });
});
afterAll(async () => {
  for (const s of [instant, quick, human, holding, holdingLonger]) await s.close({ deadlineMs: 1000 });
});

describe.each(CLIENTS)('%s', (_client, connect, era) => {
  const cases = CASES.filter((c) => era === 'legacy' || !c.legacyOnly);
  test.each(cases.map((c) => [c.name, c] as const))('approvalPage, %s', async (_name, c) => {
    const server = c.server === 'quick' ? quick : c.server === 'human' ? human : instant;
    const before = { ...runs };
    const host = await connect(server.url, c.host);
    try {
      const reply = await host.call('reserve');
      expect(host.urls).toHaveLength(c.url);
      for (const url of host.urls) expect(url.startsWith(`${server.url}/approval/`)).toBe(true);
      if (c.outcome === 'declined') {
        expect(reply.text).toBe(`not reserved (the user said no)`);
        expect(runs.charge).toBe(before.charge);
        return;
      }
      if (c.outcome === 'link') {
        const approval = reply.meta?.[APPROVAL] as { id: string; url: string };
        expect(reply.text).toContain(approval.url);
        // A question sent by URL elicitation keeps its page: the link in the result is the same one.
        if (c.url) expect(approval.url).toBe(host.urls[0]);
        expect(runs.charge).toBe(before.charge);
        expect(await answerPage(approval.url)).toBe(200);
        const again = await host.call('reserve', { approvalId: approval.id });
        expect(again.text).toBe(`reserved hold-${before.hold + 1} charge-${before.charge + 1}`);
      } else {
        expect(reply.text).toBe(`reserved hold-${before.hold + 1} charge-${before.charge + 1}`);
      }
      expect(runs.hold - before.hold).toBe(1);
      expect(runs.charge - before.charge).toBe(1);
    } finally {
      await host.close();
    }
  });

  test("no URL mode: the handler's own ctx.elicitUrl is declined, never turned into an approval page", async () => {
    const host = await connect(instant.url, {});
    try {
      const reply = await host.call('signIn');
      expect(reply.text).toBe('decline (no-capability)');
      expect(reply.meta?.[APPROVAL]).toBeUndefined();
    } finally {
      await host.close();
    }
  });

  test('URL mode only: deny declines and argument reads the confirmation (no form to send)', async () => {
    const host = await connect(instant.url, { url: 'consent-and-answer' });
    try {
      expect((await host.call('wipe')).text).toBe('kept (no-capability)');
      expect((await host.call('purge')).text).toBe('not purged (no-capability)');
      const before = runs.purged;
      expect((await host.call('purge', { userConfirmed: true })).text).toBe(`purged ${before + 1}`);
      expect(host.urls).toEqual([]);
    } finally {
      await host.close();
    }
  });
});

describe('2026 hosts that drop input_required (or never answer: they never retry)', () => {
  const meta = (elicitation: object) => ({ 'io.modelcontextprotocol/clientCapabilities': { elicitation } });
  test.each([
    ['form mode', {}, 'elicitation/create', 'form'],
    ['URL mode', { url: {} }, 'elicitation/create', 'url'],
  ])('%s: input_required at once, nothing held, the charge never ran', async (_n, caps, method, mode) => {
    const before = { ...runs };
    const params = { name: 'reserve', arguments: {}, _meta: meta(caps) };
    const reply = replyOf(await modernPost(instant.url, 1, 'tools/call', params));
    expect(reply.result.resultType).toBe('input_required');
    const requests = Object.values(reply.result.inputRequests) as { method: string; params: { mode: string } }[];
    expect(requests.map((r) => [r.method, r.params.mode])).toEqual([[method, mode]]);
    expect(runs.charge).toBe(before.charge);
  });
});

test('2026, URL mode: a retry is held retryHoldMs, then requestState only; the next retry finds the answer', async () => {
  const before = { ...runs };
  const _meta = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } };
  const call = (id: number, extra: Record<string, unknown> = {}) =>
    modernPost(holding.url, id, 'tools/call', { name: 'reserve', arguments: {}, _meta, ...extra }).then(replyOf);
  const first = await call(1);
  const link = first.result.inputRequests['reserve:approval'];
  expect(link.params).toEqual({ mode: 'url', message: 'Answer this on the approval page: Reserve the room?', url: expect.any(String) });
  // Consent, but the person has not answered: the retry is held 50 ms, then ends with requestState only.
  const consent = { 'reserve:approval': { action: 'accept' } };
  const held = await call(2, { inputResponses: consent, requestState: first.result.requestState });
  expect(held.result.resultType).toBe('input_required');
  expect(held.result.inputRequests).toBeUndefined();
  expect(runs.charge).toBe(before.charge);
  expect(await answerPage(link.params.url)).toBe(200);
  const done = await call(3, { requestState: held.result.requestState });
  expect(done.result.content[0].text).toBe(`reserved hold-${before.hold + 1} charge-${before.charge + 1}`);
  expect(runs.hold - before.hold).toBe(1);
  expect(runs.charge - before.charge).toBe(1);
});

describe.each(CLIENTS.filter(([, , era]) => era === 'modern'))('%s, replay-linted rounds', (_client, connect) => {
  test('a page answered, then the next question asked in form mode: each round passes the linter', async () => {
    const before = runs.charge;
    const host = await connect(instant.url, { form: 'decline-5ms' });
    try {
      const first = await host.call('trip');
      const approval = first.meta?.[APPROVAL] as { id: string; url: string };
      expect(await answerPage(approval.url)).toBe(200);
      // "go" comes from its page; "pay" is asked in form mode, declined at once, and goes to its own page.
      const second = await host.call('trip', { approvalId: approval.id });
      const next = second.meta?.[APPROVAL] as { id: string; url: string };
      expect(next.id).toBe(approval.id);
      expect(next.url).not.toBe(approval.url);
      expect(await answerPage(next.url)).toBe(200);
      expect((await host.call('trip', { approvalId: approval.id })).text).toBe(`paid charge-${before + 1}`);
    } finally {
      await host.close();
    }
  });
});

test('2026, URL mode, the official v2 client: it follows the requestState-only rounds until the page is answered', async () => {
  const before = { ...runs };
  const urls: string[] = [];
  const client = new ModernClient(
    { name: 'v2-host', version: '1' },
    { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (req) => {
    urls.push((req.params as { url: string }).url);
    return { action: 'accept' } as never;
  });
  await client.connect(new ModernTransport(new URL(holdingLonger.url)));
  try {
    // The client reports each round it drives: the person answers once a requestState-only round came back.
    let answered: Promise<number> | undefined;
    const onprogress = ({ progress }: { progress: number }) => {
      if (progress === 2) answered ??= answerPage(urls[0]!);
    };
    const r = await client.callTool({ name: 'reserve', arguments: {} }, { onprogress } as never);
    expect(await answered).toBe(200);
    expect(textOf(r)).toBe(`reserved hold-${before.hold + 1} charge-${before.charge + 1}`);
    expect(urls).toHaveLength(1);
    expect(runs.charge - before.charge).toBe(1);
  } finally {
    await client.close();
  }
});
