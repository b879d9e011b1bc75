/**
 * Exactly once on 2026-07-28 whatever the client resends, replays or forks, and era parity: the
 * same handler has the same effects and asks the same questions on 2026 and on legacy.
 */
import { IsString } from 'class-validator';
import { Context, Tool } from '../../../src';
import { makeApp, MemoryClient } from '../../helpers/apps';
import type { JsonObject } from '../../../src/protocol/jsonrpc';

class NameForm {
  @IsString() name!: string;
}

const effects = { charges: 0, fenced: 0, nothing: 0, tail: 0 };

class Shapes {
  @Tool({ description: 'charge between two asks' })
  async book(ctx: Context) {
    const ok = await ctx.confirm('Book it?');
    if (!ok) return 'stopped';
    const charge = await ctx.once('charge', () => `TD-${++effects.charges}`);
    const name = await ctx.elicit(NameForm, 'Name?');
    effects.tail++;
    return `${charge}:${name.action === 'accept' ? name.content.name : '-'}`;
  }

  @Tool({ description: 'catches a failed ask and fences an effect in the catch' })
  async catcher(ctx: Context) {
    try {
      return (await ctx.confirm('Go?')) ? 'went' : 'stayed';
    } catch (e) {
      await ctx.once('compensate', () => ++effects.fenced);
      throw e;
    }
  }

  @Tool({ description: 'asks again after swallowing an ask' })
  async swallower(ctx: Context) {
    let ok = false;
    try {
      ok = await ctx.confirm('First?');
    } catch {
      await ctx.elicit(NameForm, 'Only if the first failed?');
    }
    return ok ? 'yes' : 'no';
  }

  @Tool({ description: 'a once returning nothing' })
  async nothing(ctx: Context) {
    const v = await ctx.once('nothing', () => {
      effects.nothing++;
    });
    await ctx.confirm('Go?');
    return `${typeof v}`;
  }
}

const answers = (name = 'Ada', confirm = true) => ({
  'elicitation/create': (p: JsonObject) => {
    const props = Object.keys(((p.requestedSchema as JsonObject).properties as JsonObject) ?? {});
    return props.includes('confirm')
      ? { action: 'accept', content: { confirm } }
      : { action: 'accept', content: { name } };
  },
});
const caps = { elicitation: {} };
const text = (r: JsonObject) => (r.content as { text: string }[])[0]!.text;

beforeEach(() => Object.assign(effects, { charges: 0, fenced: 0, nothing: 0, tail: 0 }));

/** Drives a 2026 call, recording each request it sends (and the questions it was asked). */
async function drive(client: MemoryClient, name: string, respond = answers()) {
  const sent: JsonObject[] = [];
  const asked: string[] = [];
  let extra: JsonObject = {};
  for (;;) {
    const params = { name, arguments: {}, ...extra };
    sent.push(params);
    const r = await client.raw('tools/call', params);
    if ('error' in r) throw new Error(JSON.stringify(r.error));
    if (r.result.resultType !== 'input_required') return { result: r.result, sent, asked };
    const inputResponses: JsonObject = {};
    for (const [key, req] of Object.entries(r.result.inputRequests as Record<string, { params: JsonObject }>)) {
      asked.push(req.params.message as string);
      inputResponses[key] = respond['elicitation/create'](req.params);
    }
    extra = { inputResponses, requestState: r.result.requestState };
  }
}

describe('2026: exactly once whatever the client resends', () => {
  const app = makeApp([Shapes]);

  test('resending the final request returns the first result and runs nothing; other answers change nothing', async () => {
    const client = await MemoryClient.connect(app, { era: 'modern', capabilities: caps });
    const { result, sent } = await drive(client, 'book');
    expect(text(result)).toBe('TD-1:Ada');
    const final = sent[sent.length - 1]!;
    const again = await client.raw('tools/call', final);
    expect('result' in again && again.result).toEqual(result);
    const otherAnswer = {
      ...final,
      inputResponses: { 'elicitation-2': { action: 'accept', content: { name: 'Mallory' } } },
    };
    const forged = await client.raw('tools/call', otherAnswer);
    expect('result' in forged && text(forged.result)).toBe('TD-1:Ada');
    expect(effects).toMatchObject({ charges: 1, tail: 1 });
  });

  test('a fork resending an earlier round with other answers cannot complete the flow again', async () => {
    const client = await MemoryClient.connect(app, { era: 'modern', capabilities: caps });
    const { result, sent } = await drive(client, 'book');
    const round2 = sent[1]!;
    const fork = await client.raw('tools/call', {
      ...round2,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: false } } },
    });
    expect('result' in fork && fork.result).toEqual(result);
    expect(effects).toMatchObject({ charges: 1, tail: 1 });
  });

  test('a fork before completion re-runs the round but not the recorded once', async () => {
    const client = await MemoryClient.connect(app, { era: 'modern', capabilities: caps });
    const r1 = await client.raw('tools/call', { name: 'book', arguments: {} });
    const state1 = 'result' in r1 ? (r1.result.requestState as string) : '';
    const yes = {
      name: 'book',
      arguments: {},
      requestState: state1,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
    };
    const a = await client.raw('tools/call', yes);
    const b = await client.raw('tools/call', yes);
    expect('result' in a && a.result.resultType).toBe('input_required');
    expect('result' in b && b.result.resultType).toBe('input_required');
    expect(effects.charges).toBe(1);
  });

  test('two parallel copies of the same round: one runs the once, the other gets its recorded result', async () => {
    const client = await MemoryClient.connect(app, { era: 'modern', capabilities: caps });
    const r1 = await client.raw('tools/call', { name: 'book', arguments: {} });
    const state1 = 'result' in r1 ? (r1.result.requestState as string) : '';
    const yes = {
      name: 'book',
      arguments: {},
      requestState: state1,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
    };
    const [a, b] = await Promise.all([client.raw('tools/call', yes), client.raw('tools/call', yes)]);
    expect(effects.charges).toBe(1);
    // Each copy continues its own branch; both complete with the one charge.
    const finish = async (r: typeof a) => {
      const st = 'result' in r ? (r.result.requestState as string) : '';
      const done = await client.raw('tools/call', {
        name: 'book',
        arguments: {},
        requestState: st,
        inputResponses: { 'elicitation-2': { action: 'accept', content: { name: 'Ada' } } },
      });
      return 'result' in done ? text(done.result) : 'error';
    };
    expect(await finish(a)).toBe('TD-1:Ada');
    expect(await finish(b)).toBe('TD-1:Ada');
    expect(effects).toMatchObject({ charges: 1, tail: 1 });
  });

  test('the in-memory store cap refuses a new flow, and a one-round call still succeeds', async () => {
    const small = makeApp([Shapes], { maxTrackedFlows: 1 });
    const client = await MemoryClient.connect(small, { era: 'modern', capabilities: caps });
    const first = await client.raw('tools/call', { name: 'catcher', arguments: {} });
    expect('result' in first && first.result.resultType).toBe('input_required');
    const second = await client.raw('tools/call', { name: 'catcher', arguments: {} });
    expect('error' in second && second.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/tracking as many unfinished flows as maxTrackedFlows/),
    });
    // The tracked flow goes on, and a call that needs no next round is not affected.
    const state = 'result' in first ? (first.result.requestState as string) : '';
    const done = await client.raw('tools/call', {
      name: 'catcher',
      arguments: {},
      requestState: state,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
    });
    expect('result' in done && text(done.result)).toBe('went');
  });
});

describe('flow store pools (issue 31, N5)', () => {
  const runs = { completed: 0 };
  class Counted {
    @Tool({ description: 'asks once, then counts its completions' })
    async counted(ctx: Context) {
      await ctx.confirm('Go?');
      runs.completed++;
      return `done-${runs.completed}`;
    }
  }
  const yes = { 'elicitation-1': { action: 'accept', content: { confirm: true } } };
  const stateOf = (r: Awaited<ReturnType<MemoryClient['raw']>>) =>
    'result' in r ? (r.result.requestState as string) : '';

  test('one principal filling its share of unfinished flows is refused; another principal is served', async () => {
    const app = makeApp([Counted], { maxTrackedFlowsPerPrincipal: 2 });
    const as = (id: string) => MemoryClient.connect(app, { era: 'modern', capabilities: caps, principal: { id } });
    const mallory = await as('mallory');
    const ada = await as('ada');
    for (let i = 0; i < 2; i++) {
      expect(stateOf(await mallory.raw('tools/call', { name: 'counted', arguments: {} }))).not.toBe('');
    }
    const refused = await mallory.raw('tools/call', { name: 'counted', arguments: {} });
    expect('error' in refused && refused.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/maxTrackedFlowsPerPrincipal/),
    });
    const first = await ada.raw('tools/call', { name: 'counted', arguments: {} });
    const done = await ada.raw('tools/call', {
      name: 'counted',
      arguments: {},
      requestState: stateOf(first),
      inputResponses: yes,
    });
    expect('result' in done && text(done.result)).toMatch(/^done-/);
  });

  test('completion records let go under pressure: the store keeps serving; a retry of one is refused, not run', async () => {
    const app = makeApp([Counted], { maxTrackedFlows: 2 });
    const client = await MemoryClient.connect(app, { era: 'modern', capabilities: caps });
    const finals: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 5; i++) {
      const first = await client.raw('tools/call', { name: 'counted', arguments: {} });
      const final = { name: 'counted', arguments: {}, requestState: stateOf(first), inputResponses: yes };
      const done = await client.raw('tools/call', final);
      expect('result' in done && text(done.result)).toMatch(/^done-/);
      finals.push(final);
    }
    const before = runs.completed;
    // The newest record is kept: its retry gets its first result without running.
    const kept = await client.raw('tools/call', finals[4]!);
    expect('result' in kept && text(kept.result)).toBe(`done-${before}`);
    // The oldest was let go: its retry is refused as expired, never run a second time.
    const dropped = await client.raw('tools/call', finals[0]!);
    const refusal = { code: -32602, data: { reason: 'invalid_request_state' } };
    expect('error' in dropped && dropped.error).toMatchObject(refusal);
    expect(runs.completed).toBe(before);
  });
});

describe.each(['modern', 'legacy'] as const)('era parity, %s', (era) => {
  const app = makeApp([Shapes]);
  async function call(name: string) {
    const asked: string[] = [];
    const respond = answers();
    const handlers = {
      'elicitation/create': (p: JsonObject) => {
        asked.push(p.message as string);
        return respond['elicitation/create'](p);
      },
    };
    const client = await MemoryClient.connect(app, { era, capabilities: caps, handlers });
    if (era === 'modern') {
      const d = await drive(client, name);
      return { text: text(d.result), asked: d.asked };
    }
    const r = await client.raw('tools/call', { name, arguments: {} });
    if ('error' in r) throw new Error(JSON.stringify(r.error));
    return { text: text(r.result), asked };
  }

  test('a once in the catch of a failed ask never runs', async () => {
    expect(await call('catcher')).toEqual({ text: 'went', asked: ['Go?'] });
    expect(effects.fenced).toBe(0);
  });

  test('an ask after a swallowed ask is not sent to the user', async () => {
    expect(await call('swallower')).toEqual({ text: 'yes', asked: ['First?'] });
  });

  test('a once returning nothing gives undefined, replayed too', async () => {
    expect(await call('nothing')).toEqual({ text: 'undefined', asked: ['Go?'] });
    expect(effects.nothing).toBe(1);
  });

  test('effects and questions of a three-step flow', async () => {
    expect(await call('book')).toEqual({ text: 'TD-1:Ada', asked: ['Book it?', 'Name?'] });
    expect(effects).toMatchObject({ charges: 1, tail: 1 });
  });
});
