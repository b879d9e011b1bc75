/**
 * Exactly once on the wire (2026-07-28 over real HTTP): resending the final request, forking an
 * earlier round, and two parallel copies of a round — sent by hand and by the official v2 client.
 */
import { randomBytes } from 'node:crypto';
import { IsString } from 'class-validator';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Context, ContextServerModule, McpApplication, Tool } from '../../../src';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { silentLogger } from '../../../src/server/core/server-logger';
import { modernPost, parseSse, replyOf } from '../../helpers/http-fixtures';

class NameForm {
  @IsString() name!: string;
}

const effects = { charges: 0, tail: 0 };

class Booking {
  @Tool({ description: 'confirm, charge once, ask a name' })
  async book(ctx: Context) {
    if (!(await ctx.confirm('Book it?'))) return 'stopped';
    const charge = await ctx.once('charge', () => `TD-${++effects.charges}`);
    const name = await ctx.elicit(NameForm, 'Name?');
    effects.tail++;
    return `${charge}:${name.action === 'accept' ? name.content.name : '-'}`;
  }
}

let server: HttpServerHandle;
beforeAll(async () => {
  const app = McpApplication.create({
    name: 'once-e2e',
    version: '1.0.0',
    providers: [Booking],
    modules: [ContextServerModule.configure({ logger: silentLogger, requestStateKey: randomBytes(32) })],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close({ deadlineMs: 1000 }));
beforeEach(() => Object.assign(effects, { charges: 0, tail: 0 }));

const textOf = (result: any): string => result.content[0].text;
const yes = { action: 'accept', content: { confirm: true } };
const caps = { elicitation: {} };

async function raw(params: Record<string, unknown>) {
  const meta = { 'io.modelcontextprotocol/clientCapabilities': caps };
  return replyOf(await modernPost(server.url, 1, 'tools/call', { ...params, _meta: meta }));
}

describe('raw requests', () => {
  async function runFlow() {
    const r1 = await raw({ name: 'book', arguments: {} });
    const round2 = {
      name: 'book',
      arguments: {},
      requestState: r1.result.requestState,
      inputResponses: { [Object.keys(r1.result.inputRequests)[0]!]: yes },
    };
    const r2 = await raw(round2);
    const key = Object.keys(r2.result.inputRequests)[0]!;
    const round3 = {
      name: 'book',
      arguments: {},
      requestState: r2.result.requestState,
      inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
    };
    const r3 = await raw(round3);
    return { round2, round3, key, final: r3.result };
  }

  test('resending the final request, with the same or other answers, returns the first result and runs nothing', async () => {
    const { round3, key, final } = await runFlow();
    expect(textOf(final)).toBe('TD-1:Ada');
    expect((await raw(round3)).result).toEqual(final);
    const other = await raw({
      ...round3,
      inputResponses: { [key]: { action: 'accept', content: { name: 'Mallory' } } },
    });
    expect(other.result).toEqual(final);
    expect(effects).toEqual({ charges: 1, tail: 1 });
  });

  test('a fork of an earlier round with another answer cannot complete the flow again', async () => {
    const { round2, final } = await runFlow();
    const fork = await raw({
      ...round2,
      inputResponses: { [Object.keys(round2.inputResponses)[0]!]: { action: 'accept', content: { confirm: false } } },
    });
    expect(fork.result).toEqual(final);
    expect(effects).toEqual({ charges: 1, tail: 1 });
  });

  test('two parallel copies of the round that charges: the charge runs once', async () => {
    const r1 = await raw({ name: 'book', arguments: {} });
    const round2 = {
      name: 'book',
      arguments: {},
      requestState: r1.result.requestState,
      inputResponses: { [Object.keys(r1.result.inputRequests)[0]!]: yes },
    };
    const copies = await Promise.all([raw(round2), raw(round2), raw(round2)]);
    expect(copies.map((c) => c.result.resultType)).toEqual(['input_required', 'input_required', 'input_required']);
    expect(effects.charges).toBe(1);
  });
});

describe('official v2 client', () => {
  /** Every tools/call POST the client sends, and (when `duplicate`) a parallel copy of each later round. */
  function recordingFetch(duplicate: boolean) {
    const sent: Array<{ url: string; init: RequestInit; body: any }> = [];
    const copies: Array<Promise<any>> = [];
    const f = async (url: string | URL, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      if (body?.method === 'tools/call') {
        sent.push({ url: String(url), init: init!, body });
        if (duplicate && body.params.requestState) copies.push(fetch(url, init).then(readReply));
      }
      return fetch(url, init);
    };
    return { fetch: f, sent, copies };
  }
  async function readReply(res: Response): Promise<any> {
    const text = await res.text();
    if (String(res.headers.get('content-type')).startsWith('text/event-stream'))
      return parseSse(text).find((m) => 'id' in m);
    return JSON.parse(text);
  }
  async function connect(f: (url: string | URL, init?: RequestInit) => Promise<Response>) {
    const client = new ModernClient(
      { name: 'v2-once', version: '1.0.0' },
      { capabilities: caps, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async (req) => {
      const message = (req.params as { message: string }).message;
      const content: Record<string, string | boolean> = message.includes('Book')
        ? { confirm: true }
        : { name: 'Modern Ada' };
      return { action: 'accept' as const, content };
    });
    await client.connect(new ModernTransport(new URL(server.url), { fetch: f }));
    return client;
  }

  test('its final request resent (same, then other answers) returns the first result and runs nothing', async () => {
    const rec = recordingFetch(false);
    const client = await connect(rec.fetch);
    try {
      const result = await client.callTool({ name: 'book', arguments: {} });
      expect(textOf(result)).toBe('TD-1:Modern Ada');
      const last = rec.sent[rec.sent.length - 1]!;
      expect(last.body.params.requestState).toEqual(expect.any(String));
      const again = await readReply(await fetch(last.url, last.init));
      expect(textOf(again.result)).toBe('TD-1:Modern Ada');
      const key = Object.keys(last.body.params.inputResponses)[0]!;
      const other = {
        ...last.body,
        params: { ...last.body.params, inputResponses: { [key]: { action: 'accept', content: { name: 'Mallory' } } } },
      };
      const forged = await readReply(await fetch(last.url, { ...last.init, body: JSON.stringify(other) }));
      expect(textOf(forged.result)).toBe('TD-1:Modern Ada');
      expect(effects).toEqual({ charges: 1, tail: 1 });
    } finally {
      await client.close();
    }
  });

  test('each round it sends doubled by a parallel copy: the charge and the completion run once', async () => {
    const rec = recordingFetch(true);
    const client = await connect(rec.fetch);
    try {
      expect(textOf(await client.callTool({ name: 'book', arguments: {} }))).toBe('TD-1:Modern Ada');
      const copies = await Promise.all(rec.copies);
      expect(copies).toHaveLength(2);
      // The copy of the final round got the first completion, not a second run.
      expect(textOf(copies[1].result)).toBe('TD-1:Modern Ada');
      expect(effects).toEqual({ charges: 1, tail: 1 });
    } finally {
      await client.close();
    }
  });
});
