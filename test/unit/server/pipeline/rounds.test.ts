/**
 * Issue 16: guards run before every round's attempt, interceptors every round or once per flow,
 * on both eras, with asks inside the guarded handler; the replay linter (on, 'error') neither runs
 * them in its dry replay nor reports their effects as the handler's.
 */
import { injectable } from 'tsyringe';
import {
  Context,
  Effect,
  isInputRequired,
  Tool,
  UseGuards,
  UseInterceptors,
  type CallNext,
  type CanActivate,
  type ExecutionContext,
  type Interceptor,
} from '../../../../src';
import { makeApp, MemoryClient } from '../../../helpers/apps';

const seen = {
  guard: [] as string[],
  every: [] as string[],
  first: [] as string[],
  completion: [] as string[],
  handler: 0,
  charges: 0,
};

class Recorder {
  @Effect()
  charge(): void {
    seen.charges++;
  }
}
const recorder = new Recorder();

class RoundGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    seen.guard.push(`${ctx.phase}:${ctx.flow?.round ?? '-'}:${ctx.principal?.id ?? 'anon'}`);
    return ctx.principal?.id !== 'mallory';
  }
}

class EveryRound implements Interceptor {
  async intercept(ctx: ExecutionContext, next: CallNext) {
    try {
      return await next();
    } catch (e) {
      if (isInputRequired(e)) seen.every.push(`${ctx.flow!.round}:asks:${ctx.flow!.completes}`);
      throw e;
    } finally {
      if (ctx.flow!.completes) seen.every.push(`${ctx.flow!.round}:done`);
    }
  }
}

class FirstRound implements Interceptor {
  readonly runs = 'firstRound';
  intercept(ctx: ExecutionContext, next: CallNext) {
    seen.first.push(`${ctx.flow!.round}:${ctx.flow!.firstRound}`);
    recorder.charge(); // an effect before the handler asks: once per flow, not the handler's
    return next();
  }
}

class Audit implements Interceptor {
  readonly runs = 'completion';
  async intercept(ctx: ExecutionContext, next: CallNext) {
    const value = await next();
    seen.completion.push(`${ctx.flow!.round}:${ctx.flow!.completes}:${JSON.stringify(ctx.arguments)}`);
    return `${String(value)} (audited)`;
  }
}

@injectable()
@UseGuards(RoundGuard)
class Wizard {
  @Tool({ description: 'asks three times' })
  @UseInterceptors(EveryRound, FirstRound, Audit)
  async wizard(ctx: Context) {
    seen.handler++;
    const a = await ctx.confirm('one?', { key: 'a' });
    const b = await ctx.confirm('two?', { key: 'b' });
    const c = await ctx.confirm('three?', { key: 'c' });
    return `${a}${b}${c}`;
  }
}

const yes = { action: 'accept', content: { confirm: true } };
const app = makeApp([Wizard], { replayLint: 'error' });

beforeEach(() => {
  seen.guard = [];
  seen.every = [];
  seen.first = [];
  seen.completion = [];
  seen.handler = 0;
  seen.charges = 0;
});

test('2026: a guard before each of the three rounds; first-round and completion interceptors once', async () => {
  const c = await MemoryClient.connect(app, {
    era: 'modern',
    capabilities: { elicitation: {} },
    principal: { id: 'alice' },
  });
  const r1 = await c.request('tools/call', { name: 'wizard' });
  expect(r1.resultType).toBe('input_required');
  const r2 = await c.request('tools/call', {
    name: 'wizard',
    requestState: r1.requestState,
    inputResponses: { a: yes },
  });
  const r3 = await c.request('tools/call', {
    name: 'wizard',
    requestState: r2.requestState,
    inputResponses: { b: yes },
  });
  const done = await c.request('tools/call', {
    name: 'wizard',
    requestState: r3.requestState,
    inputResponses: { c: yes },
  });
  expect(done).toMatchObject({ resultType: 'complete', content: [{ text: 'truetruetrue (audited)' }] });
  expect(seen.guard).toEqual(['call:1:alice', 'call:2:alice', 'call:3:alice', 'call:4:alice']);
  expect(seen.every).toEqual(['1:asks:false', '2:asks:false', '3:asks:false', '4:done']);
  expect(seen.first).toEqual(['1:true']);
  expect(seen.charges).toBe(1);
  expect(seen.completion).toEqual(['4:true:{}']);
  // The linter's dry replays run the handler (rounds 1–3 twice), never the pipeline.
  expect(seen.handler).toBe(7);

  // A retry of the completed flow answers its recorded result: nothing runs again.
  const again = await c.request('tools/call', {
    name: 'wizard',
    requestState: r3.requestState,
    inputResponses: { c: yes },
  });
  expect(again).toMatchObject({ content: [{ text: 'truetruetrue (audited)' }] });
  expect(seen.completion).toHaveLength(1);
});

test('legacy: the flow is one round; every interceptor runs once', async () => {
  const c = await MemoryClient.connect(app, {
    era: 'legacy',
    capabilities: { elicitation: {} },
    principal: { id: 'alice' },
    handlers: { 'elicitation/create': () => yes },
  });
  const done = await c.request('tools/call', { name: 'wizard' });
  expect(done).toMatchObject({ content: [{ text: 'truetruetrue (audited)' }] });
  expect(seen.guard).toEqual(['call:1:alice']);
  expect(seen.every).toEqual(['1:done']);
  expect(seen.first).toEqual(['1:true']);
  expect(seen.completion).toEqual(['1:true:{}']);
  expect(seen.handler).toBe(1);
});

describe.each(['modern', 'legacy'] as const)('%s: a refused caller', (era) => {
  test('never reaches the handler, gets the unknown-tool error, and does not see the tool', async () => {
    const c = await MemoryClient.connect(app, {
      era,
      capabilities: { elicitation: {} },
      principal: { id: 'mallory' },
      handlers: { 'elicitation/create': () => yes },
    });
    const refused = await c.raw('tools/call', { name: 'wizard' });
    const unknown = await c.raw('tools/call', { name: 'nope' });
    expect(refused).toMatchObject({ error: { code: -32602, message: 'Unknown tool: wizard' } });
    expect((unknown as { error: object }).error).toEqual({ code: -32602, message: 'Unknown tool: nope' });
    expect(seen.handler).toBe(0);
    expect(seen.first).toEqual([]);
    const list = await c.request('tools/list');
    expect(list.tools).toEqual([]);
    if (era === 'modern') expect(list.cacheScope).toBe('private');
    // Invalid arguments do not reveal it either.
    const bad = await c.raw('tools/call', { name: 'wizard', arguments: { x: 1 } });
    expect(bad).toMatchObject({ error: { code: -32602 } });
  });

  test('an allowed caller sees it', async () => {
    const c = await MemoryClient.connect(app, { era, principal: { id: 'alice' } });
    const list = await c.request('tools/list');
    expect((list.tools as { name: string }[]).map((t) => t.name)).toEqual(['wizard']);
    expect(seen.guard).toEqual(['list:-:alice']);
  });
});
