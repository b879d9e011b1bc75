/**
 * Each way a legacy ask fails has its own code: a handler can tell "cannot ask" from "asked, answers stayed invalid".
 */
import { IsString, MinLength } from 'class-validator';
import { Context, FrameworkError, Tool } from '../../../src';
import { MemoryClient, makeApp } from '../../helpers/apps';

class NameForm {
  @IsString() @MinLength(2) name!: string;
}

class Asking {
  @Tool({ description: 'reports how the ask failed', forms: [NameForm] })
  async ask(ctx: Context) {
    try {
      await ctx.elicit(NameForm, 'Name?');
      return 'answered';
    } catch (e) {
      return e instanceof FrameworkError ? e.code : 'other';
    }
  }
}

const textOf = (r: Record<string, unknown>) => (r.content as { text: string }[])[0]!.text;

test('a client without the capability: OMC_ASK_UNAVAILABLE', async () => {
  const client = await MemoryClient.connect(makeApp([Asking]), { era: 'legacy', capabilities: {} });
  expect(textOf(await client.request('tools/call', { name: 'ask' }))).toBe('OMC_ASK_UNAVAILABLE');
});

test('answers that stay invalid after maxReasks: OMC_ASK_INVALID_ANSWER', async () => {
  let asked = 0;
  const client = await MemoryClient.connect(makeApp([Asking], { maxReasks: 2 }), {
    era: 'legacy',
    capabilities: { elicitation: {} },
    handlers: { 'elicitation/create': () => (asked++, { action: 'accept', content: { name: 'x' } }) },
  });
  expect(textOf(await client.request('tools/call', { name: 'ask' }))).toBe('OMC_ASK_INVALID_ANSWER');
  expect(asked).toBe(3);
});
