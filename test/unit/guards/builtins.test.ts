/**
 * Issue 16, the built-ins: RateLimit (per principal and per handler, a flow counts once, a clear
 * retry-after error, lists never limited), Timeout, ResultSizeLimit, Timing — on both eras.
 */
import {
  Context,
  ContextServerModule,
  McpApplication,
  MemoryTokenBucket,
  RateLimit,
  RATE_LIMITED,
  ResultSizeLimit,
  Timeout,
  Timing,
  TOKEN_BUCKETS,
  Tool,
  UseGuards,
  UseInterceptors,
  Prompt,
  type TimingEntry,
} from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { MemoryClient } from '../../helpers/apps';

let now = 0;
const timings: TimingEntry[] = [];

class Limited {
  @Tool({ description: 'two per second per caller' })
  @UseGuards(RateLimit({ capacity: 2, refillPerSecond: 1 }))
  ping() {
    return 'pong';
  }
  @Tool({ description: 'asks, limited once per flow' })
  @UseGuards(RateLimit({ capacity: 1, refillPerSecond: 1 }))
  async ask(ctx: Context) {
    return String(await ctx.confirm('ok?', { key: 'ok' }));
  }
  @Tool({ description: 'slow' })
  @UseInterceptors(Timeout(20))
  async slow() {
    await new Promise((r) => setTimeout(r, 2_000).unref());
    return 'late';
  }
  @Tool({ description: 'big' })
  @UseInterceptors(ResultSizeLimit(100))
  big() {
    return 'x'.repeat(500);
  }
  @Prompt({ description: 'big prompt' })
  @UseInterceptors(ResultSizeLimit(100))
  bigPrompt() {
    return 'y'.repeat(500);
  }
  @Tool({ description: 'timed' })
  @UseInterceptors(Timing((e) => timings.push(e)))
  async timed(ctx: Context) {
    return String(await ctx.confirm('go?', { key: 'go' }));
  }
}

function app() {
  return McpApplication.create({
    name: 'builtins',
    version: '1.0.0',
    providers: [Limited, { provide: TOKEN_BUCKETS, useValue: new MemoryTokenBucket(() => now) }],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
}
const yes = { action: 'accept', content: { confirm: true } };

beforeEach(() => {
  now = 1_000_000;
  timings.length = 0;
});

describe.each(['modern', 'legacy'] as const)('%s', (era) => {
  test('RateLimit: a bucket per principal and tool; refusal says when to retry; lists are not limited', async () => {
    const a = app();
    const alice = await MemoryClient.connect(a, { era, principal: { id: 'alice' } });
    const bob = await MemoryClient.connect(a, { era, principal: { id: 'bob' } });
    await alice.request('tools/call', { name: 'ping' });
    await alice.request('tools/call', { name: 'ping' });
    const refused = await alice.raw('tools/call', { name: 'ping' });
    expect(refused).toMatchObject({
      error: {
        code: RATE_LIMITED,
        message: 'Rate limit exceeded for tool ping: retry in 1 s',
        data: { reason: 'rate_limited', retryAfterMs: 1000, retryAfterSeconds: 1 },
      },
    });
    expect(await bob.request('tools/call', { name: 'ping' })).toMatchObject({ content: [{ text: 'pong' }] });
    for (let i = 0; i < 5; i++) expect((await alice.request('tools/list')).tools).toHaveLength(5);
    now += 1000;
    expect(await alice.request('tools/call', { name: 'ping' })).toMatchObject({ content: [{ text: 'pong' }] });
  });

  test('Timeout: the attempt fails with a readable tool error', async () => {
    const c = await MemoryClient.connect(app(), { era });
    const r = await c.request('tools/call', { name: 'slow' });
    expect(r).toMatchObject({ isError: true, content: [{ text: 'The tool slow did not answer within 20 ms' }] });
  });

  test('ResultSizeLimit: a tool error for a tool, -32603 with the message for a prompt', async () => {
    const c = await MemoryClient.connect(app(), { era });
    expect(await c.request('tools/call', { name: 'big' })).toMatchObject({
      isError: true,
      content: [{ text: 'The tool big returned 500 bytes, more than its limit of 100' }],
    });
    expect(await c.raw('prompts/get', { name: 'bigPrompt' })).toMatchObject({
      error: { code: -32603, message: 'The prompt bigPrompt returned 500 bytes, more than its limit of 100' },
    });
  });
});

test('RateLimit on 2026: a flow of two rounds takes one token', async () => {
  const c = await MemoryClient.connect(app(), {
    era: 'modern',
    principal: { id: 'alice' },
    capabilities: { elicitation: {} },
  });
  const r1 = await c.request('tools/call', { name: 'ask' });
  const done = await c.request('tools/call', {
    name: 'ask',
    requestState: r1.requestState,
    inputResponses: { ok: yes },
  });
  expect(done).toMatchObject({ content: [{ text: 'true' }] });
  expect(await c.raw('tools/call', { name: 'ask' })).toMatchObject({ error: { code: RATE_LIMITED } });
});

test('Timing reports each round with how it ended', async () => {
  const c = await MemoryClient.connect(app(), {
    era: 'modern',
    principal: { id: 'al' },
    capabilities: { elicitation: {} },
  });
  const r1 = await c.request('tools/call', { name: 'timed' });
  await c.request('tools/call', { name: 'timed', requestState: r1.requestState, inputResponses: { go: yes } });
  expect(timings.map(({ ms: _ms, ...rest }) => rest)).toEqual([
    { method: 'tools/call', target: 'timed', principal: 'al', round: 1, outcome: 'input_required' },
    { method: 'tools/call', target: 'timed', principal: 'al', round: 2, outcome: 'complete' },
  ]);
  expect(timings.every((t) => t.ms >= 0)).toBe(true);
});

test('built-in factories refuse bad settings', () => {
  expect(() => RateLimit({ capacity: 0, refillPerSecond: 1 })).toThrow(RangeError);
  expect(() => RateLimit({ capacity: 1, refillPerSecond: 1, per: 'ip' as never })).toThrow(/per must be/);
  expect(() => Timeout(-1)).toThrow(RangeError);
  expect(() => Timeout(Number.NaN)).toThrow(RangeError);
  expect(() => ResultSizeLimit(0)).toThrow(RangeError);
});
