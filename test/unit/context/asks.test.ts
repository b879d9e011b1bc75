/** One handler source per behaviour, run on 2026-07-28 (replayed) and on 2025-11-25 (really awaited). */
import { IsEmail, IsString, Length } from 'class-validator';
import { Context, Field, Prompt, Resource, Tool } from '../../../src';
import { InputRequiredSignal } from '../../../src/context/input-required';
import { makeApp, MemoryClient } from '../../helpers/apps';
import type { JsonObject } from '../../../src/protocol/jsonrpc';
import { dispatcherOf } from '../../../src/app/dispatcher-of';

class NameForm {
  @IsString() @Length(1, 40) @Field({ title: 'Name' }) name!: string;
}
class ContactForm {
  @IsEmail() email!: string;
}

const questionVariant = { value: 'a' };
const counters = { charges: 0, afterLastAsk: 0, beforeAsk: 0 };

class AskTools {
  @Tool({ description: 'one elicitation' })
  async single(ctx: Context) {
    const r = await ctx.elicit(NameForm, 'Name?', { key: 'user_name' });
    return r.action === 'accept' ? `Hello, ${r.content.name}!` : `action=${r.action}`;
  }

  @Tool({ description: 'parallel asks share one round' })
  async parallel(ctx: Context) {
    const [name, model, roots] = await Promise.all([
      ctx.elicit(NameForm, 'Name?'),
      ctx.sample('Capital of France?'),
      ctx.listRoots(),
    ]);
    const text = (model.content as { text: string }).text;
    return `${name.action === 'accept' ? name.content.name : '-'}|${text}|${roots.map((r) => r.uri).join(',')}`;
  }

  @Tool({ description: 'three sequential rounds with state and a fenced side effect' })
  async sequential(ctx: Context) {
    counters.beforeAsk++;
    ctx.state.set('started', ctx.state.get('started') ?? 'yes');
    const ok = await ctx.confirm('Proceed?');
    if (!ok) return 'stopped';
    const name = await ctx.elicit(NameForm, 'Name?');
    if (name.action !== 'accept') return 'no name';
    ctx.state.set('name', name.content.name);
    const charge = await ctx.once('charge', () => `charge-${++counters.charges}`);
    const contact = await ctx.elicit(ContactForm, `Email for ${ctx.state.get('name')}?`);
    counters.afterLastAsk++;
    return `${ctx.state.get('started')}:${ctx.state.get('name')}:${charge}:${contact.action === 'accept' ? contact.content.email : '-'}`;
  }

  @Tool({ description: 'swallows the signal by mistake' })
  async swallow(ctx: Context) {
    try {
      await ctx.elicit(NameForm, 'Name?');
    } catch {
      return 'completed without an answer';
    }
    return 'answered';
  }

  @Tool({ description: 'question depends on input' })
  async changing(ctx: Context) {
    const r = await ctx.elicit(NameForm, `Name for ${questionVariant.value}?`, { key: 'q' });
    return r.action;
  }

  @Tool({ description: 'needs sampling' })
  async needsSampling(ctx: Context) {
    return (await ctx.sample('hi')).model;
  }

  @Tool({ description: 'degrades' })
  async degrades(ctx: Context) {
    if (!ctx.supports('elicitation')) return 'no elicitation: default used';
    const r = await ctx.elicit(NameForm, 'Name?');
    return r.action;
  }

  @Tool({ description: 'pauses a round' })
  async pauses(ctx: Context) {
    await ctx.pause();
    return 'resumed';
  }

  @Tool({ description: 'asks with its own timeout' })
  async quickConfirm(ctx: Context) {
    return (await ctx.confirm('Sure?', { timeoutMs: 50 })) ? 'yes' : 'no';
  }

  @Prompt({ description: 'a prompt that asks' })
  async askingPrompt(ctx: Context) {
    const r = await ctx.elicit(NameForm, 'Context?', { key: 'user_context' });
    return r.action === 'accept' ? `About ${r.content.name}` : 'nothing';
  }

  @Resource({ uri: 'test://asking' })
  async askingResource(ctx: Context) {
    return (await ctx.confirm('Read it?')) ? 'secret' : 'nope';
  }
}

const app = makeApp([AskTools]);
const allCaps = { elicitation: {}, sampling: {}, roots: {} };
type Answer = (request: JsonObject) => unknown;

/** Answers by method: the same answers for both eras. */
function answerer(overrides: Partial<Record<string, Answer>> = {}): Record<string, Answer> {
  return {
    'elicitation/create': (p) => {
      const props = Object.keys(((p.requestedSchema as JsonObject).properties as JsonObject) ?? {});
      if (props.includes('confirm')) return { action: 'accept', content: { confirm: true } };
      if (props.includes('email')) return { action: 'accept', content: { email: 'ada@example.com' } };
      return { action: 'accept', content: { name: 'Ada' } };
    },
    'sampling/createMessage': () => ({ role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' }),
    'roots/list': () => ({ roots: [{ uri: 'file:///r' }] }),
    ...overrides,
  };
}

/** Drives a 2026 call through its rounds like a client would; returns the final result and rounds. */
async function driveModern(
  client: MemoryClient,
  method: string,
  params: JsonObject,
  answers: Record<string, Answer>,
  maxRounds = 8,
) {
  let extra: JsonObject = {};
  const requests: JsonObject[] = [];
  for (let round = 1; round <= maxRounds; round++) {
    const r = await client.raw(method, { ...params, ...extra });
    if ('error' in r) return { error: r.error, rounds: round, requests };
    if (r.result.resultType !== 'input_required') return { result: r.result, rounds: round, requests };
    const inputRequests = (r.result.inputRequests ?? {}) as Record<string, { method: string; params: JsonObject }>;
    requests.push(inputRequests);
    const inputResponses: JsonObject = {};
    for (const [key, req] of Object.entries(inputRequests))
      inputResponses[key] = await answers[req.method]!(req.params);
    extra = { inputResponses, requestState: r.result.requestState };
  }
  throw new Error('too many rounds');
}

async function run(
  era: 'modern' | 'legacy',
  method: string,
  params: JsonObject,
  answers = answerer(),
  capabilities: object = allCaps,
) {
  const client = await MemoryClient.connect(app, { era, capabilities, handlers: answers });
  if (era === 'modern') return driveModern(client, method, params, answers);
  const r = await client.raw(method, params);
  return 'error' in r ? { error: r.error, rounds: 1, requests: [] } : { result: r.result, rounds: 1, requests: [] };
}

const text = (r: { result?: JsonObject }) => ((r.result?.content as { text: string }[] | undefined) ?? [])[0]?.text;

describe.each(['modern', 'legacy'] as const)('%s', (era) => {
  const rounds = (n: number) => (era === 'modern' ? n : 1);

  test('single ask', async () => {
    const r = await run(era, 'tools/call', { name: 'single' });
    expect(text(r)).toBe('Hello, Ada!');
    expect(r.rounds).toBe(rounds(2));
  });

  test('parallel asks share one round', async () => {
    const r = await run(era, 'tools/call', { name: 'parallel' });
    expect(text(r)).toBe('Ada|Paris|file:///r');
    expect(r.rounds).toBe(rounds(2));
    if (era === 'modern') expect(Object.keys(r.requests[0]!)).toEqual(['elicitation-1', 'sampling-1', 'roots-1']);
  });

  test('sequential asks over three rounds keep state; the fenced side effect and the tail run once', async () => {
    counters.charges = counters.afterLastAsk = counters.beforeAsk = 0;
    const r = await run(era, 'tools/call', { name: 'sequential' });
    expect(text(r)).toBe('yes:Ada:charge-1:ada@example.com');
    expect(r.rounds).toBe(rounds(4));
    expect(counters.charges).toBe(1);
    expect(counters.afterLastAsk).toBe(1);
    expect(counters.beforeAsk).toBe(rounds(4));
  });

  test.each(['decline', 'cancel'])('%s', async (action) => {
    const r = await run(era, 'tools/call', { name: 'single' }, answerer({ 'elicitation/create': () => ({ action }) }));
    expect(text(r)).toBe(`action=${action}`);
  });

  test('an invalid answer is asked again, never completed with', async () => {
    let calls = 0;
    const answers = answerer({
      'elicitation/create': () =>
        ++calls === 1 ? { action: 'accept', content: { name: '' } } : { action: 'accept', content: { name: 'Bo' } },
    });
    const r = await run(era, 'tools/call', { name: 'single' }, answers);
    expect(text(r)).toBe('Hello, Bo!');
    expect(calls).toBe(2);
    expect(r.rounds).toBe(rounds(3));
  });

  test('undeclared capability: -32021 on 2026, a clear tool error on legacy; no request sent', async () => {
    let sent = 0;
    const r = await run(
      era,
      'tools/call',
      { name: 'needsSampling' },
      answerer({ 'sampling/createMessage': () => (sent++, {}) }),
      { elicitation: {} },
    );
    expect(sent).toBe(0);
    if (era === 'modern') {
      expect(r.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    } else {
      expect(r.result).toMatchObject({ isError: true });
      expect(text(r)).toMatch(/did not declare the sampling capability/);
    }
  });

  test('a handler can check capabilities and degrade', async () => {
    expect(text(await run(era, 'tools/call', { name: 'degrades' }, answerer(), { sampling: {} }))).toBe(
      'no elicitation: default used',
    );
  });

  test('prompts and resource reads may ask', async () => {
    const p = await run(era, 'prompts/get', { name: 'askingPrompt' });
    expect(p.result).toMatchObject({ messages: [{ content: { text: 'About Ada' } }] });
    const res = await run(era, 'resources/read', { uri: 'test://asking' });
    expect(res.result).toMatchObject({ contents: [{ text: 'secret' }] });
  });

  test('pause: a requestState-only round on 2026, a short wait on legacy', async () => {
    const r = await run(era, 'tools/call', { name: 'pauses' });
    expect(text(r)).toBe('resumed');
    expect(r.rounds).toBe(rounds(2));
    if (era === 'modern') expect(r.requests[0]).toEqual({});
  });
});

describe('2026 replay rules', () => {
  const connect = () => MemoryClient.connect(app, { era: 'modern', capabilities: allCaps });

  test('a swallowed signal still yields input_required', async () => {
    const c = await connect();
    const r = await c.request('tools/call', { name: 'swallow' });
    expect(r.resultType).toBe('input_required');
    expect(new InputRequiredSignal()).toBeInstanceOf(Error);
  });

  test('answers without requestState are accepted by key; unknown keys ignored; wrong keys re-asked', async () => {
    const c = await connect();
    const ok = await c.request('tools/call', {
      name: 'single',
      inputResponses: { user_name: { action: 'accept', content: { name: 'Al' } }, unknown_extra_key: { x: 1 } },
    });
    expect(ok).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Al!' }] });
    const again = await c.request('tools/call', {
      name: 'single',
      inputResponses: { wrong_key: { action: 'accept' } },
    });
    expect(again).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: expect.any(Object) } });
  });

  test('malformed inputResponses never complete', async () => {
    const c = await connect();
    for (const inputResponses of [{ user_name: 12345 }, null, 'x', [1], { user_name: { action: 'maybe' } }]) {
      const r = await c.raw('tools/call', { name: 'single', inputResponses } as JsonObject);
      if ('result' in r) expect(r.result.resultType).toBe('input_required');
    }
  });

  test('tampered, foreign and replayed-elsewhere state is one frozen -32602 and the handler never runs', async () => {
    const c = await connect();
    const r1 = await c.request('tools/call', { name: 'sequential' });
    const state = r1.requestState as string;
    counters.beforeAsk = 0;
    const attempts: JsonObject[] = [
      { name: 'sequential', requestState: state + '-TAMPERED' },
      { name: 'sequential', requestState: state.slice(0, -2) },
      { name: 'single', requestState: state },
      { name: 'sequential', arguments: {}, requestState: state }, // other params than the state was bound to
      { name: 'sequential', requestState: 42 },
      { name: 'sequential', requestState: 'x'.repeat(70_000) },
    ];
    const errors = [];
    for (const params of attempts) {
      const r = await c.raw('tools/call', params);
      expect('error' in r).toBe(true);
      if ('error' in r) errors.push(r.error);
    }
    expect(new Set(errors.map((e) => JSON.stringify(e))).size).toBe(1);
    expect(errors[0]).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
      data: { reason: 'invalid_request_state' },
    });
    expect(counters.beforeAsk).toBe(0);
    const ok = await c.request('tools/call', {
      name: 'sequential',
      requestState: state,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
    });
    expect(ok.resultType).toBe('input_required');
  });

  test('state from another process key is refused', async () => {
    const other = makeApp([AskTools]);
    const a = await connect();
    const b = await MemoryClient.connect(other, { era: 'modern', capabilities: allCaps });
    const r1 = await a.request('tools/call', { name: 'single' });
    const r2 = await b.raw('tools/call', { name: 'single', requestState: r1.requestState } as JsonObject);
    expect(r2).toMatchObject({ error: { code: -32602 } });
  });

  test('a changed question is asked again instead of reusing a stale answer', async () => {
    const c = await connect();
    questionVariant.value = 'a';
    const r1 = await c.request('tools/call', { name: 'changing' });
    expect(Object.keys(r1.inputRequests as object)).toEqual(['q']);
    questionVariant.value = 'b';
    const answer = { q: { action: 'accept', content: { name: 'Old' } } };
    const r2 = await c.request('tools/call', {
      name: 'changing',
      requestState: r1.requestState,
      inputResponses: answer,
    });
    expect(r2).toMatchObject({
      resultType: 'input_required',
      inputRequests: { q: { params: { message: 'Name for b?' } } },
    });
    const r3 = await c.request('tools/call', {
      name: 'changing',
      requestState: r2.requestState,
      inputResponses: answer,
    });
    expect(r3).toMatchObject({ resultType: 'complete', content: [{ text: 'accept' }] });
  });

  test('2026 state is ignored on legacy sessions (never reaches the handler)', async () => {
    const m = await connect();
    const r1 = await m.request('tools/call', { name: 'single' });
    const legacy = await MemoryClient.connect(app, { era: 'legacy', capabilities: allCaps, handlers: answerer() });
    const r = await legacy.request('tools/call', {
      name: 'single',
      requestState: r1.requestState,
      inputResponses: { user_name: { action: 'accept', content: { name: 'Eve' } } },
    });
    expect((r.content as { text: string }[])[0]!.text).toBe('Hello, Ada!');
  });
});

describe('legacy real await', () => {
  test('cancelling the request cancels the pending ask', async () => {
    let seen: JsonObject | undefined;
    const never = new Promise(() => undefined);
    const c = await MemoryClient.connect(app, {
      era: 'legacy',
      capabilities: allCaps,
      handlers: { 'elicitation/create': (p) => ((seen = p), never) },
    });
    const pending = c.raw('tools/call', { name: 'single' });
    for (let i = 0; i < 200 && !seen; i++) await new Promise((r) => setTimeout(r, 10)); // until the ask arrives
    expect(seen).toBeDefined();
    c.notify('notifications/cancelled', { requestId: 2, reason: 'user' }); // id 1 was initialize
    const outcome = await Promise.race([
      pending.then(() => 'answered'),
      new Promise((r) => setTimeout(() => r('no response'), 100)),
    ]);
    expect(outcome).toBe('no response');
    expect(await c.request('tools/list')).toMatchObject({ tools: expect.any(Array) });
  });

  test('an ask times out after its own timeoutMs with a readable tool error', async () => {
    const c = await MemoryClient.connect(app, {
      era: 'legacy',
      capabilities: allCaps,
      handlers: { 'elicitation/create': () => new Promise(() => undefined) },
    });
    expect(await c.request('tools/call', { name: 'quickConfirm' })).toMatchObject({
      isError: true,
      content: [{ text: 'The client did not answer elicitation/create within 50 ms.' }],
    });
  });

  test('answers that stay invalid are re-asked maxReasks times, then the ask fails', async () => {
    let asked = 0;
    const c = await MemoryClient.connect(app, {
      era: 'legacy',
      capabilities: allCaps,
      handlers: { 'elicitation/create': () => (asked++, { action: 'accept', content: { name: '' } }) },
    });
    const r = await c.request('tools/call', { name: 'single' });
    expect(r).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^The client's answers were invalid: name must be longer/) }],
    });
    expect(asked).toBe(4); // the first ask and maxReasks (3) more
  });

  test('a client without a push channel gets an actionable error, not a hang', async () => {
    const io = { signal: new AbortController().signal, notify: () => undefined };
    const { LegacySession } = await import('../../../src/server/legacy/legacy-session');
    const session = new LegacySession();
    session.clientCapabilities = allCaps;
    const reply = await dispatcherOf(app).handleLegacy(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'single' } },
      session,
      io,
    );
    expect(reply.message).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringMatching(/no channel for server-to-client requests/) }] },
    });
  });
});

describe('legacy revisions gate asks whatever the client declares', () => {
  test('2025-03-26 has no elicitation; 2025-06-18 has form but not URL elicitation', async () => {
    const old = await MemoryClient.connect(app, {
      era: 'legacy',
      protocolVersion: '2025-03-26',
      capabilities: allCaps,
      handlers: answerer(),
    });
    const r = await old.request('tools/call', { name: 'single' });
    expect(r).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/2025-03-26 has no elicitation/) }],
    });
    const mid = await MemoryClient.connect(app, {
      era: 'legacy',
      protocolVersion: '2025-06-18',
      capabilities: allCaps,
      handlers: answerer(),
    });
    expect(await mid.request('tools/call', { name: 'single' })).toMatchObject({ content: [{ text: 'Hello, Ada!' }] });
  });
});
