/**
 * Faults through the bridge, with a hand-written legacy upstream (fixtures/scripted-upstream.mjs)
 * that misbehaves on cue: it dies mid-ask, its caller abandons a parked call, a retry arrives
 * twice, a retry lands on another instance, and it floods asks, answers malformed or never, lists
 * without end. Each ends in a clear error or a bounded result, and the bridge keeps serving.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  ContextClient,
  ContextServerModule,
  McpApplication,
  mountServer,
  type Mount,
  type MountInit,
} from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { modernPost, replyOf } from '../../helpers/http-fixtures';

jest.setTimeout(60_000);

const SCRIPT = join(__dirname, 'fixtures/scripted-upstream.mjs');
const KEY = randomBytes(32);
const CAPS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
const ADA = { action: 'accept', content: { name: 'Ada' } };

interface Bridge {
  app: McpApplication;
  mount: Mount;
  server: HttpServerHandle;
  events: string[];
  close(): Promise<void>;
}

async function bridge(init: Partial<MountInit> = {}, env: Record<string, string> = {}): Promise<Bridge> {
  const events: string[] = [];
  const app = McpApplication.create({
    name: 'bridge-faults',
    version: '1.0.0',
    providers: [],
    modules: [ContextServerModule.configure({ logger: silentLogger, requestStateKey: KEY })],
  });
  const mount = await mountServer(app, {
    namespace: 'up',
    prefixNames: false,
    command: process.execPath,
    args: [SCRIPT],
    env,
    protocolVersion: '2025-11-25',
    restartMinMs: 50,
    onEvent: (m) => events.push(m),
    ...init,
  });
  const server = await serveHttp(app, { port: 0 });
  return {
    app,
    mount,
    server,
    events,
    close: async () => {
      await server.close({ deadlineMs: 1000 });
      await mount.close();
      await app.close();
    },
  };
}

let n = 0;
async function call(b: Bridge, name: string, extra: Record<string, unknown> = {}, args = {}) {
  return replyOf(await modernPost(b.server.url, ++n, 'tools/call', { name, arguments: args, _meta: CAPS, ...extra }));
}
const textOf = (reply: { result?: { content?: Array<{ text?: string }> } }) => reply.result?.content?.[0]?.text;
async function status(b: Bridge): Promise<{ answers: number; cancelled: number; calls: number }> {
  return JSON.parse(textOf(await call(b, 'status'))!);
}
/** Re-checks (on the upstream's own report) until it holds; the deadline is only a safety net. */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read().catch(() => undefined as T);
    if (v !== undefined && ok(v)) return v;
    if (Date.now() > until) throw new Error(`not reached: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a legacy upstream behind one bridge', () => {
  let b: Bridge;
  beforeEach(async () => (b = await bridge({ parkTimeoutMs: 1_500, maxAsksPerCall: 5, requestTimeoutMs: 2_000 })));
  afterEach(() => b.close());

  test('2026 caller: the upstream ask becomes an input_required round; the answer completes the parked call', async () => {
    const first = await call(b, 'ask');
    expect(first.result.resultType).toBe('input_required');
    const [key, request] = Object.entries(first.result.inputRequests)[0] as [string, { method: string }];
    expect(request.method).toBe('elicitation/create');
    expect(b.mount.parkedCalls).toBe(1);
    const done = await call(b, 'ask', { requestState: first.result.requestState, inputResponses: { [key]: ADA } });
    expect(textOf(done)).toBe('hello Ada');
  });

  test('a retry that arrives twice: the answer reaches the upstream once, both get the one result', async () => {
    const before = (await status(b)).answers;
    const first = await call(b, 'ask');
    const key = Object.keys(first.result.inputRequests)[0]!;
    const retry = { requestState: first.result.requestState, inputResponses: { [key]: ADA } };
    const [a, c] = await Promise.all([call(b, 'ask', retry), call(b, 'ask', retry)]);
    const third = await call(b, 'ask', retry);
    for (const r of [a, c, third]) expect(textOf(r) ?? r.error?.message).toMatch(/hello Ada|requestState/);
    expect(textOf(a) ?? textOf(c)).toBe('hello Ada');
    expect((await status(b)).answers - before).toBe(1);
  });

  test('a 2026 caller abandons a parked call: it is cancelled upstream at its deadline, a late retry refused', async () => {
    const first = await call(b, 'ask');
    expect(first.result.resultType).toBe('input_required');
    await eventually(() => status(b), (s) => s.cancelled >= 1);
    expect(b.mount.parkedCalls).toBe(0);
    const key = Object.keys(first.result.inputRequests)[0]!;
    const late = await call(b, 'ask', { requestState: first.result.requestState, inputResponses: { [key]: ADA } });
    expect(late.error.data.reason).toBe('parked_expired');
  });

  test('a legacy caller abandons its call mid-ask: the upstream call is cancelled', async () => {
    const abort = new AbortController();
    const client = await ContextClient.connect(
      { url: b.server.url },
      {
        protocolVersion: '2025-11-25',
        elicitation: () => (abort.abort(new Error('walked away')), new Promise(() => {})),
      },
    );
    try {
      await expect(client.callTool('ask', {}, { signal: abort.signal })).rejects.toThrow(/walked away/);
      await eventually(() => status(b), (s) => s.cancelled >= 1);
    } finally {
      await client.close();
    }
  });

  test('the upstream dies mid-ask: a clear error, then it is restarted and serves again', async () => {
    const first = await call(b, 'die-mid-ask');
    const key = first.result ? Object.keys(first.result.inputRequests ?? {})[0] : undefined;
    const after = first.result
      ? await call(b, 'die-mid-ask', { requestState: first.result.requestState, inputResponses: { [key!]: ADA } })
      : first;
    expect(after.error.data.reason).toBe('upstream_unavailable');
    expect(after.error.message).toMatch(/"up"/);
    const back = await eventually(() => call(b, 'echo', {}, { message: 'back' }), (r) => textOf(r) === 'echo: back');
    expect(textOf(back)).toBe('echo: back');
    expect(b.events.join('\n')).toMatch(/is down: its process exited/);
  });

  test('a legacy caller mid-ask when the upstream dies gets a clear error, no hang', async () => {
    const client = await ContextClient.connect(
      { url: b.server.url },
      { protocolVersion: '2025-11-25', elicitation: () => new Promise((r) => setTimeout(() => r(ADA as never), 500)) },
    );
    try {
      await expect(client.callTool('die-mid-ask')).rejects.toThrow(/unavailable|failed during the call/);
    } finally {
      await client.close();
    }
  });

  test('a flood of asks is bounded per call; malformed and slow replies end in clear errors; the bridge serves on', async () => {
    const client = await ContextClient.connect(
      { url: b.server.url },
      { protocolVersion: '2025-11-25', elicitation: () => ADA as never },
    );
    try {
      expect((await client.callTool('flood', { count: 50 })).content).toEqual([
        { type: 'text', text: 'answered 5, refused 45' },
      ]);
      await expect(client.callTool('malformed')).rejects.toThrow(/malformed/);
      await expect(client.callTool('slow')).rejects.toThrow(/did not finish within 1500 ms/);
      expect((await client.callTool('echo', { message: 'still here' })).content).toEqual([
        { type: 'text', text: 'echo: still here' },
      ]);
    } finally {
      await client.close();
    }
  });
});

test('a fleet: a retry on an instance that does not hold the parked call is refused, never restarted', async () => {
  const a = await bridge();
  const other = await bridge();
  try {
    const first = await call(a, 'ask');
    const key = Object.keys(first.result.inputRequests)[0]!;
    const callsBefore = (await status(other)).calls;
    const retry = { requestState: first.result.requestState, inputResponses: { [key]: ADA } };
    const elsewhere = await call(other, 'ask', retry);
    expect(elsewhere.error.code).toBe(-32602);
    expect(elsewhere.error.data.reason).toBe('parked_elsewhere');
    expect((await status(other)).calls - callsBefore).toBe(1); // only this status call: no `ask` restarted
    const home = await call(a, 'ask', retry);
    expect(textOf(home)).toBe('hello Ada');
  } finally {
    await a.close();
    await other.close();
  }
});

test('an upstream whose list never ends is cut at maxListItems and reported', async () => {
  const b = await bridge({ maxListItems: 1_200 }, { HUGE: '1' });
  try {
    expect(b.mount.names('tools')).toHaveLength(1_200);
    expect(b.events.join('\n')).toMatch(/tools list was cut at 1200 items/);
  } finally {
    await b.close();
  }
});
