/** requestState is bound to the principal: another user, or a drift to/from anonymous, is refused. */
import { IsString } from 'class-validator';
import { Context, Tool } from '../../../../src';
import { makeApp, MemoryClient } from '../../../helpers/apps';

class Form {
  @IsString() ok!: string;
}
let handlerRuns = 0;
class Deploy {
  @Tool({ description: 'deploys after asking' })
  async deploy(ctx: Context) {
    handlerRuns++;
    const r = await ctx.elicit(Form, 'Sure?', { key: 'sure' });
    return `${ctx.principal?.id ?? 'anonymous'}:${r.action}`;
  }
}

const app = makeApp([Deploy]);
const caps = { elicitation: {} };
const as = (id?: string) =>
  MemoryClient.connect(app, { era: 'modern', capabilities: caps, principal: id ? { id } : undefined });
const answer = { sure: { action: 'accept', content: { ok: 'yes' } } };

test('B1: bob cannot use alice’s state; alice then completes', async () => {
  const [alice, bob] = [await as('alice'), await as('bob')];
  const r1 = await alice.request('tools/call', { name: 'deploy' });
  handlerRuns = 0;
  const stolen = await bob.raw('tools/call', { name: 'deploy', inputResponses: answer, requestState: r1.requestState });
  expect(stolen).toMatchObject({ error: { code: -32602 } });
  expect(handlerRuns).toBe(0);
  const done = await alice.request('tools/call', {
    name: 'deploy',
    inputResponses: answer,
    requestState: r1.requestState,
  });
  expect(done).toMatchObject({ resultType: 'complete', content: [{ text: 'alice:accept' }] });
});

test('B3: principal drift in either direction is refused', async () => {
  const [anon, carol] = [await as(), await as('carol')];
  const fromAnon = await anon.request('tools/call', { name: 'deploy' });
  const fromCarol = await carol.request('tools/call', { name: 'deploy' });
  handlerRuns = 0;
  expect(
    await carol.raw('tools/call', { name: 'deploy', inputResponses: answer, requestState: fromAnon.requestState }),
  ).toMatchObject({ error: { code: -32602 } });
  expect(
    await anon.raw('tools/call', { name: 'deploy', inputResponses: answer, requestState: fromCarol.requestState }),
  ).toMatchObject({ error: { code: -32602 } });
  expect(handlerRuns).toBe(0);
});
