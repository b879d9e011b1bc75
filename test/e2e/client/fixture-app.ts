/** A small app that exercises every client path: plain tools, asks of each kind, a prompt, resources. */
import { IsString } from 'class-validator';
import { Context, Field, McpApplication, Prompt, Resource, Tool } from '../../../src';

export class EchoArgs {
  @IsString() @Field({ description: 'What to echo' }) text!: string;
}
export class NameForm {
  @IsString() name!: string;
}
export class CityForm {
  @IsString() city!: string;
}

export class FixtureTools {
  @Tool({ description: 'Echo' })
  echo(args: EchoArgs) {
    return args.text;
  }

  @Tool({ description: 'Asks the user for a name' })
  async greet(_args: EchoArgs, ctx: Context) {
    const r = await ctx.elicit(NameForm, 'Your name?', { key: 'user_name' });
    return r.action === 'accept' ? `Hello, ${r.content.name}!` : `no (${r.action})`;
  }

  @Tool({ description: 'Two asks in sequence' })
  async trip(_args: EchoArgs, ctx: Context) {
    const name = await ctx.elicit(NameForm, 'Your name?', { key: 'user_name' });
    const city = await ctx.elicit(CityForm, 'Where to?', { key: 'city' });
    const n = name.action === 'accept' ? name.content.name : '?';
    const c = city.action === 'accept' ? city.content.city : '?';
    return `${n} goes to ${c}`;
  }

  @Tool({ description: 'Sampling and roots' })
  async summarize(_args: EchoArgs, ctx: Context) {
    const reply = await ctx.sample(
      { messages: [{ role: 'user', content: { type: 'text', text: 'Summarize' } }], maxTokens: 10 },
      { key: 'summary' },
    );
    const roots = await ctx.listRoots({ key: 'roots' });
    const block = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return `${(block as { text?: string }).text} @ ${roots.map((r) => r.uri).join(',')}`;
  }

  @Tool({ description: 'Reports progress' })
  async slow(_args: EchoArgs, ctx: Context) {
    await ctx.progress(1, 2, 'half');
    await ctx.progress(2, 2, 'done');
    return 'slow done';
  }

  @Prompt({ description: 'Greets someone after asking their name' })
  async hello(ctx: Context) {
    const r = await ctx.elicit(NameForm, 'Your name?', { key: 'user_name' });
    return `Hello ${r.action === 'accept' ? r.content.name : 'world'}`;
  }

  @Resource({ uri: 'fixture://readme', name: 'readme', mimeType: 'text/plain' })
  readme() {
    return 'read me';
  }
}

export function fixtureApp(): McpApplication {
  return McpApplication.create({ name: 'client-fixture', version: '1.0.0', providers: [FixtureTools] });
}
