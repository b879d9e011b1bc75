/**
 * Hostile input on the approval page and on the call that continues a flow: each refused with a
 * clear page (or an isError result), nothing recorded, the flow still usable by its owner.
 */
import 'reflect-metadata';
import { IsString, Length } from 'class-validator';
import { Context, ContextServerModule, McpApplication, Tool, serveHttp, type HttpServerHandle } from 'onemodelcontext';
import { connect } from 'node:net';
import { modernPost, rawRequest, replyOf } from '../../helpers/http-fixtures';

class NoteForm {
  @IsString() @Length(2, 20) note!: string;
}
class Args {
  @IsString() item!: string;
}

let charges = 0;
class Shop {
  @Tool({ forms: [NoteForm], asks: { kinds: ['elicit'], fallback: 'approvalPage' } })
  async order(args: Args, ctx: Context) {
    const answer = await ctx.elicit(NoteForm, 'Add a note for the courier', { key: 'note' });
    if (answer.action !== 'accept') return 'no order';
    await ctx.once('charge', () => ++charges);
    return `ordered ${args.item}: ${answer.content.note}`;
  }
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
let server: HttpServerHandle;
let now = Date.now();

beforeAll(async () => {
  const app = McpApplication.create({
    name: 'shop',
    version: '1.0.0',
    providers: [Shop],
    modules: [
      ContextServerModule.configure({
        authenticate: (r) => {
          const user = r.headers?.['x-user'];
          return typeof user === 'string' ? { id: user } : undefined;
        },
        asks: { approvalLifetimeMs: 60_000 },
        logger: { warn: () => undefined, error: () => undefined },
      }),
    ],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close({ deadlineMs: 1000 }));

async function order(args: Record<string, unknown>, user?: string) {
  const headers: Record<string, string> = user ? { 'x-user': user } : {};
  const reply = replyOf(await modernPost(server.url, 1, 'tools/call', { name: 'order', arguments: args }, headers));
  return reply.result as { content: { text: string }[]; isError?: boolean; _meta?: Record<string, any> };
}

async function link(user?: string) {
  const r = await order({ item: 'tea' }, user);
  return r._meta!['io.onemodelcontext/approval'] as { id: string; url: string };
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  rawRequest(url, { method: 'POST', headers: { ...FORM, ...headers }, body });

test('a valid answer is recorded once; the same link then refuses', async () => {
  const { id, url } = await link('alice');
  expect((await post(url, 'note=hello&_action=accept')).status).toBe(200);
  const reused = await post(url, 'note=other&_action=accept');
  expect(reused.status).toBe(410);
  expect(reused.text).toContain('already answered');
  expect((await order({ item: 'tea', approvalId: id }, 'alice')).content[0]!.text).toBe('ordered tea: hello');
});

test('an authenticated caller may leave the id out: it continues its own open flow', async () => {
  const { url } = await link('dora');
  expect((await post(url, 'note=by+principal&_action=accept')).status).toBe(200);
  expect((await order({ item: 'tea' }, 'erin'))._meta).toBeDefined(); // another principal: a new flow and link
  expect((await order({ item: 'tea' }, 'dora')).content[0]!.text).toBe('ordered tea: by principal');
  // Finished: the same call without an id starts over (a second order is a new flow, never the old result).
  expect((await order({ item: 'tea' }, 'dora'))._meta?.['io.onemodelcontext/approval']).toBeDefined();
});

test('a tampered link (seal, flow id, page id) is refused and records nothing', async () => {
  const { url } = await link('alice');
  // The third character from the end changed (not the last: its low bits may be base64url padding).
  const flipped = url.slice(0, -3) + (url.at(-3) === 'A' ? 'B' : 'A') + url.slice(-2);
  for (const bad of [flipped, url.replace(/approval\/[^.]+/, 'approval/AAAAAAAAAAAAAAAAAAAAAA'), url + 'x']) {
    const r = await post(bad, 'note=hello&_action=accept');
    expect([400, 410]).toContain(r.status);
    expect(r.text).toContain('This page cannot be used');
  }
  const get = await rawRequest(url, { method: 'GET' });
  expect(get.status).toBe(200); // the real link still opens: nothing was recorded
});

test("another flow's page id under this flow does not open (links are bound to their flow)", async () => {
  const a = await link('alice');
  const b = await link('bob');
  const [, aRest] = a.url.split('/approval/');
  const [, bRest] = b.url.split('/approval/');
  const mixed = `${a.url.split('/approval/')[0]}/approval/${bRest!.split('.')[0]}.${aRest!.split('.').slice(1).join('.')}`;
  const r = await post(mixed, 'note=hello&_action=accept');
  expect([400, 410]).toContain(r.status);
});

test('another principal, or an anonymous caller, cannot pick up the answer', async () => {
  const { id, url } = await link('alice');
  expect((await post(url, 'note=for+alice&_action=accept')).status).toBe(200);
  const mallory = await order({ item: 'tea', approvalId: id }, 'mallory');
  expect(mallory.isError).toBe(true);
  expect(mallory.content[0]!.text).toContain('another caller');
  const anonymous = await order({ item: 'tea', approvalId: id });
  expect(anonymous.isError).toBe(true);
  const otherArgs = await order({ item: 'coffee', approvalId: id }, 'alice');
  expect(otherArgs.isError).toBe(true);
  expect(otherArgs.content[0]!.text).toContain('other arguments');
  const before = charges;
  expect((await order({ item: 'tea', approvalId: id }, 'alice')).content[0]!.text).toBe('ordered tea: for alice');
  expect(charges - before).toBe(1);
});

test('a cross-site POST is refused, by Sec-Fetch-Site or by Origin', async () => {
  const { url } = await link('alice');
  const bySite = await post(url, 'note=hello&_action=accept', { 'Sec-Fetch-Site': 'cross-site' });
  expect(bySite.status).toBe(403);
  expect(bySite.text).toContain('another site');
  const byOrigin = await post(url, 'note=hello&_action=accept', { Origin: 'https://evil.example' });
  expect(byOrigin.status).toBe(403);
  expect((await rawRequest(url, { method: 'GET' })).status).toBe(200);
});

test('an oversized, non-form or invalid body is refused; nothing is recorded', async () => {
  const { url } = await link('alice');
  const big = await post(url, `note=${'x'.repeat(20_000)}&_action=accept`);
  expect(big.status).toBe(413);
  const json = await rawRequest(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  expect(json.status).toBe(415);
  const unknown = await post(url, 'note=hello&admin=1&_action=accept');
  expect(unknown.status).toBe(400);
  expect(unknown.text).toContain('does not ask');
  const invalid = await post(url, 'note=x&_action=accept');
  expect(invalid.status).toBe(422);
  expect(invalid.text).toContain('Please correct the form');
  const page = await rawRequest(url, { method: 'GET' });
  expect(page.status).toBe(200);
  expect(page.headers['content-security-policy']).toMatch(/default-src 'none'.*form-action 'self'.*frame-ancestors 'none'/);
  expect(page.text).not.toMatch(/<script/i);
});

test('an expired flow refuses its page and its id', async () => {
  const { id, url } = await link('carol');
  const realNow = Date.now;
  now = realNow() + 61_000;
  Date.now = () => now;
  try {
    const r = await rawRequest(url, { method: 'GET' });
    expect(r.status).toBe(410);
    expect(r.text).toContain('expired');
    const again = await order({ item: 'tea', approvalId: id }, 'carol');
    expect(again.isError).toBe(true);
    expect(again.content[0]!.text).toContain('unknown or expired');
  } finally {
    Date.now = realNow;
  }
});

describe('URL mode (2026): the sealed flow id in requestState', () => {
  const URL_CAPS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } };
  const call = async (user: string | undefined, extra: Record<string, unknown>) => {
    const headers: Record<string, string> = user ? { 'x-user': user } : {};
    const params = { name: 'order', arguments: { item: 'tea' }, _meta: URL_CAPS, ...extra };
    return replyOf(await modernPost(server.url, 1, 'tools/call', params, headers));
  };

  test("another principal cannot continue alice's URL-mode flow, nor a tampered state; alice still can", async () => {
    const before = charges;
    const first = await call('alice', {});
    const asked = first.result.inputRequests['note:approval'];
    expect(asked.params.mode).toBe('url');
    const consent = { 'note:approval': { action: 'accept' } };
    const state = first.result.requestState as string;
    expect((await post(asked.params.url, 'note=hello&_action=accept')).status).toBe(200);

    const mallory = await call('mallory', { inputResponses: consent, requestState: state });
    expect(mallory.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    const tampered = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;
    const forged = await call('alice', { inputResponses: consent, requestState: tampered });
    expect(forged.error).toMatchObject({ code: -32602 });
    expect(charges).toBe(before);

    const done = await call('alice', { inputResponses: consent, requestState: state });
    expect(done.result.content[0].text).toBe('ordered tea: hello');
    expect(charges).toBe(before + 1);
  });
});

test('a form streamed past its cap gets its 413, then the connection closes (not left open behind a paused body)', async () => {
  const { url } = await link('alice');
  const { host, pathname, search } = new URL(url);
  const client = connect({ port: server.port, host: '127.0.0.1' });
  await new Promise((r) => client.once('connect', r));
  const received: Buffer[] = [];
  client.on('data', (c: Buffer) => received.push(c));
  const ended = new Promise<void>((r) => client.once('end', r));
  client.on('error', () => undefined); // the server may cut a client that keeps sending; the reply is read first
  client.write(
    `POST ${pathname}${search} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
      'Transfer-Encoding: chunked\r\n\r\n',
  );
  const piece = `note=${'x'.repeat(8 * 1024)}`;
  // 48 KiB in chunks, three times the page's cap; the body is never ended (a client that keeps its request open).
  for (let i = 0; i < 6; i++) client.write(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
  await ended;
  const text = Buffer.concat(received).toString('latin1');
  expect(text).toMatch(/^HTTP\/1\.1 413 /);
  expect(text).toMatch(/\r\nconnection: close\r\n/i);
  client.destroy();
  expect((await rawRequest(url, { method: 'GET' })).status).toBe(200);
});
