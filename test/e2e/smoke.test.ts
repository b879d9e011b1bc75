import { IsString } from 'class-validator';
import { Context, McpApplication, MemoryClient, Tool, Field } from '../../src';

class EchoArgs {
  @IsString() @Field({ description: 'What to echo' }) text!: string;
}
class NameForm {
  @IsString() name!: string;
}

class Tools {
  @Tool({ description: 'Echo' })
  echo(args: EchoArgs) {
    return args.text;
  }
  @Tool({ description: 'Greets' })
  async greet(_args: EchoArgs, ctx: Context) {
    const r = await ctx.elicit(NameForm, 'Your name?', { key: 'user_name' });
    return r.action === 'accept' ? `Hello, ${r.content.name}!` : 'no';
  }
}

test('smoke both eras', async () => {
  const app = McpApplication.create({ name: 's', version: '1', providers: [Tools] });
  const modern = await MemoryClient.connect(app, { era: 'modern', capabilities: { elicitation: {} } });
  const list = await modern.request('tools/list');
  expect(list).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
  expect(await modern.request('tools/call', { name: 'echo', arguments: { text: 'hi' } })).toMatchObject({
    content: [{ type: 'text', text: 'hi' }],
  });
  const r1 = await modern.request('tools/call', { name: 'greet', arguments: { text: 'x' } });
  expect(r1.resultType).toBe('input_required');
  const r2 = await modern.request('tools/call', {
    name: 'greet',
    arguments: { text: 'x' },
    inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
    requestState: r1.requestState,
  });
  expect(r2).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Alice!' }] });

  const legacy = await MemoryClient.connect(app, {
    era: 'legacy',
    capabilities: { elicitation: {} },
    handlers: { 'elicitation/create': () => ({ action: 'accept', content: { name: 'Bob' } }) },
  });
  expect(await legacy.request('tools/call', { name: 'greet', arguments: { text: 'x' } })).toMatchObject({
    content: [{ text: 'Hello, Bob!' }],
  });
});
