/**
 * The byte budgets hold in a real process (issue 31, N2, N3, N10 and pending asks): a server built
 * from dist runs in a child (test/helpers/budget-server.js); one principal floods one store over
 * HTTP past its budget; the flood is refused, naming the option; the child's live heap grows by no
 * more than the budget's stated worst case, and its RSS by no more than that plus the runtime's
 * slack (freed pages not given back, sockets, parser buffers); another principal is still served.
 * The caps are lowered from the defaults so each run stays short; the figures scale with them.
 * Needs `npm run build`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import {
  JSON_HEADERS,
  MODERN,
  modernMeta,
  modernPost,
  RawLegacyClient,
  rawRequest,
  replyOf,
  streamingRequest,
  waitFor,
} from '../../helpers/http-fixtures';

const SERVER = resolve(__dirname, '../../helpers/budget-server.js');
const KiB = 1024;
const MiB = 1024 * KiB;
/** What the runtime itself may add to RSS under a flood beside live objects. */
const SLACK = 48 * MiB;

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

async function start(config: Record<string, unknown>): Promise<string> {
  child = spawn(process.execPath, ['--expose-gc', SERVER, JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) return (JSON.parse(line) as { url: string }).url;
  }
  throw new Error('the budget server exited before listening');
}

interface Memory {
  rss: number;
  heapUsed: number;
}

async function memory(url: string): Promise<Memory> {
  const r = replyOf(await modernPost(url, 'm', 'tools/call', { name: 'rss', arguments: {} }, { 'X-User': 'probe' }));
  return JSON.parse(r.result.content[0].text) as Memory;
}

async function echoAs(url: string, user: string): Promise<string> {
  const r = replyOf(
    await modernPost(url, 'e', 'tools/call', { name: 'echo', arguments: { text: 'still served' } }, { 'X-User': user }),
  );
  return r.result.content[0].text as string;
}

/** Prints the figures and asserts the bound: live heap within the figure, RSS within it plus slack. */
function expectWithin(label: string, before: Memory, after: Memory, figure: number, sent: number): void {
  const heap = after.heapUsed - before.heapUsed;
  const rss = after.rss - before.rss;
  const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
  console.log(`${label}: sent ${mib(sent)}; heap grew ${mib(heap)}, RSS ${mib(rss)}; stated worst case ${mib(figure)}`);
  expect(heap).toBeLessThan(figure);
  expect(rss).toBeLessThan(figure + SLACK);
}

test('task records (N2): finished tasks with large arguments and results stay within the per-principal figure', async () => {
  const maxTasksPerPrincipal = 20;
  const url = await start({ server: { taskAfterMs: 0, maxTasksPerPrincipal }, resultChars: MiB - 64 * KiB });
  const argument = 'a'.repeat(255 * KiB);
  const meta = modernMeta({ 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
  // Warm the path first (its compiled code is not what is measured).
  const warm = { name: 'report', arguments: { text: 'w' }, _meta: meta };
  expect(replyOf(await modernPost(url, 'w', 'tools/call', warm, { 'X-User': 'warm' })).result.resultType).toBe('task');
  const before = await memory(url);
  const outcomes: string[] = [];
  for (let i = 0; i < 3 * maxTasksPerPrincipal; i++) {
    const params = { name: 'report', arguments: { text: argument }, _meta: meta };
    const r = replyOf(await modernPost(url, i, 'tools/call', params, { 'X-User': 'mallory' }));
    outcomes.push(r.error ? String(r.error.message) : r.result.resultType);
  }
  // The principal's tasks fill its share, and every call after that is refused, naming the option. A call may
  // come back `complete` instead of becoming a task: when the process is paused for longer than the handler's
  // 50 ms between arming the handler's timer and the escalation's (a loaded machine), the call finishes first,
  // and it takes no record.
  const lastTask = outcomes.lastIndexOf('task');
  expect(outcomes.filter((o) => o === 'task')).toHaveLength(maxTasksPerPrincipal);
  expect(outcomes.slice(0, lastTask).every((o) => o === 'task' || o === 'complete')).toBe(true);
  const refused = outcomes.slice(lastTask + 1);
  expect(refused.length).toBeGreaterThan(maxTasksPerPrincipal);
  expect(refused.every((o) => o.includes('maxTasksPerPrincipal'))).toBe(true);
  // Stated worst case: maxTasksPerPrincipal × (maxTaskArgumentBytes + maxTaskResultBytes).
  const figure = maxTasksPerPrincipal * (256 * KiB + MiB);
  expectWithin('tasks', before, await memory(url), figure, outcomes.length * argument.length);
  expect(await echoAs(url, 'ada')).toBe('still served');
});

/** Opens a 2026 listen stream and resolves with its first bytes (the ack, or the refusal). */
function listen(url: string, id: number, params: Record<string, unknown>, user?: string) {
  return new Promise<{ text: string; req: ClientRequest }>((done, fail) => {
    const headers = {
      ...JSON_HEADERS,
      'MCP-Protocol-Version': MODERN,
      'Mcp-Method': 'subscriptions/listen',
      ...(user ? { 'X-User': user } : {}),
    };
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.once('data', (c: Buffer) => done({ text: c.toString(), req }));
      res.on('error', () => undefined);
    });
    req.on('error', fail);
    req.end(JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params }));
  });
}

test('listen streams (N3): anonymous streams with full filters and padded requests keep only their filters', async () => {
  const maxAnonymousListenStreams = 60;
  const url = await start({ server: { maxAnonymousListenStreams } });
  // A filter just under maxSubscriptionUriBytes (64 KiB), in a request padded with 256 KiB more.
  const uris = Array.from({ length: 1000 }, (_, i) => `doc://${String(i).padStart(4, '0')}-${'u'.repeat(50)}`);
  const params = {
    notifications: { resourceSubscriptions: uris },
    _meta: modernMeta({ 'example.com/padding': 'p'.repeat(256 * KiB) }),
  };
  const warm = await listen(url, -1, params, 'warm');
  expect(warm.text).toContain('acknowledged');
  warm.req.destroy();
  const before = await memory(url);
  const open: ClientRequest[] = [];
  const refusals: string[] = [];
  let sent = 0;
  try {
    for (let i = 0; i < maxAnonymousListenStreams * 1.5; i++) {
      const { text, req } = await listen(url, i, params);
      sent += JSON.stringify(params).length;
      if (text.includes('maxAnonymousListenStreams')) refusals.push(text);
      else {
        expect(text).toContain('acknowledged');
        open.push(req);
      }
    }
    expect(open).toHaveLength(maxAnonymousListenStreams);
    expect(refusals).toHaveLength(maxAnonymousListenStreams / 2);
    // Stated worst case (docs/security.md): per stream maxSubscriptionUriBytes, 32 bytes for each of
    // at most 1 000 URIs (string headers, the array), and 32 KiB for the open connection.
    const perStream = 64 * KiB + 1000 * 32 + 32 * KiB;
    expectWithin('listen streams', before, await memory(url), maxAnonymousListenStreams * perStream, sent);
    const ada = await listen(url, 9999, params, 'ada');
    expect(ada.text).toContain('acknowledged');
    open.push(ada.req);
    expect(await echoAs(url, 'ada')).toBe('still served');
  } finally {
    for (const req of open) req.destroy();
  }
});

/** A legacy call of `keep`, whose ask carries `text`. */
function keepCall(id: string, text: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'keep', arguments: { text } } });
}

/** One session through the path measured (subscribe, an ask answered), then deleted. */
async function warmLegacy(url: string): Promise<void> {
  const c = new RawLegacyClient(url, '2025-11-25', { 'X-User': 'warm' });
  await c.initialize({ elicitation: {} });
  expect(replyOf(await c.call('s', 'resources/subscribe', { uri: 'doc://warm' })).result).toEqual({});
  const body = keepCall('w', 'w');
  const reply = streamingRequest(url, { headers: { ...JSON_HEADERS, ...c.headers() }, body }, (e) => {
    if (e.method === 'elicitation/create') void c.post({ jsonrpc: '2.0', id: e.id, result: { action: 'decline' } });
  });
  expect(JSON.stringify((await reply).events)).toContain('dropped');
  await rawRequest(url, { method: 'DELETE', headers: c.headers() });
}

test('legacy sessions (N10, pending asks): subscriptions and asks of one principal stay within its figure', async () => {
  const maxSessionsPerPrincipal = 12;
  const url = await start({
    server: { maxPendingAskBytesPerPrincipal: 8 * MiB },
    http: { maxSessionsPerPrincipal, sessionEvictionMinIdleMs: 600_000 },
  });
  await warmLegacy(url);
  const before = await memory(url);
  let sent = 0;
  const sessions: RawLegacyClient[] = [];
  const asked: Array<{ id: string }> = [];
  const calls: Array<Promise<string>> = [];
  const askText = 'k'.repeat(MiB + 64 * KiB);
  for (let s = 0; s < maxSessionsPerPrincipal; s++) {
    const c = new RawLegacyClient(url, '2025-11-25', { 'X-User': 'mallory' });
    expect((await c.initialize({ elicitation: {} })).status).toBe(200);
    sessions.push(c);
    // Subscriptions up to maxSubscriptionUriBytes (64 KiB): eight URIs of 8 000 characters; the ninth is refused.
    for (let u = 0; u < 9; u++) {
      const uri = `doc://${u}-${'s'.repeat(8_000 - 8)}`;
      const r = replyOf(await c.call(`sub${u}`, 'resources/subscribe', { uri }));
      sent += uri.length;
      if (u < 8) expect(r.result).toEqual({});
      else expect(r.error.message).toContain('maxSubscriptionUriBytes');
    }
    // One call whose ask carries 1.06 MiB of the caller's text; it waits for the client's answer.
    const body = keepCall('keep', askText);
    sent += body.length;
    const reply = streamingRequest(url, { headers: { ...JSON_HEADERS, ...c.headers() }, body }, (e) => {
      if (e.method === 'elicitation/create') asked.push(e);
    });
    const call = reply.then((r) => JSON.stringify(r.events.find((e) => e.id === 'keep')));
    // The seven waiting calls never end here: the child is killed after the test and they reject
    // ('aborted'); unhandled, jest would blame whichever suite runs next in this worker.
    call.catch(() => undefined);
    calls.push(call);
  }
  // 8 MiB of asks for the principal: seven wait, the rest are refused at once.
  await waitFor(() => asked.length === 7, 20_000);
  const refused = await Promise.all(calls.slice(7));
  expect(refused.every((t) => t.includes('maxPendingAskBytesPerPrincipal'))).toBe(true);
  // A session over maxSessionsPerPrincipal: none is idle long enough to give way.
  const over = new RawLegacyClient(url, '2025-11-25', { 'X-User': 'mallory' });
  const overReply = await over.initialize();
  expect(overReply.status).toBe(429);
  expect(overReply.text).toContain('maxSessionsPerPrincipal');
  // Stated worst case (docs/security.md): per session maxSubscriptionUriBytes, 32 bytes for each of
  // at most maxSubscriptionsPerSession URIs and 32 KiB for the session; maxPendingAskBytesPerPrincipal;
  // and the waiting calls' own arguments (request bodies in flight, each within maxBodyBytes).
  const perSession = 64 * KiB + 1000 * 32 + 32 * KiB;
  const figure = maxSessionsPerPrincipal * perSession + 8 * MiB + 7 * askText.length;
  expectWithin('legacy sessions', before, await memory(url), figure, sent);
  // Another principal: a session, a subscription, an ask of its own.
  const ada = new RawLegacyClient(url, '2025-11-25', { 'X-User': 'ada' });
  expect((await ada.initialize({ elicitation: {} })).status).toBe(200);
  expect(replyOf(await ada.call(1, 'resources/subscribe', { uri: 'doc://ada' })).result).toEqual({});
  expect(await echoAs(url, 'ada')).toBe('still served');
});
