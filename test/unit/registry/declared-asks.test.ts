import 'reflect-metadata';
import { IsString } from 'class-validator';
import { McpApplication, Tool, Prompt } from '../../../src';

class Args {
  @IsString() id!: string;
}

function build(cls: Function) {
  return () => McpApplication.create({ name: 't', version: '1', providers: [cls as new () => object] });
}

test('asks.kinds must name known asks', () => {
  class Bad {
    @Tool({ asks: { kinds: ['confirm', 'shout' as never] } })
    run() {
      return 'x';
    }
  }
  expect(build(Bad)).toThrow(/Bad\.run: asks: kinds must list what the handler asks/);
});

test('argument answers confirm only; approvalPage and argument are for tools', () => {
  class FormByArgument {
    @Tool({ asks: { kinds: ['elicit'], fallback: 'argument' } })
    run() {
      return 'x';
    }
  }
  expect(build(FormByArgument)).toThrow(/fallback 'argument' answers only ctx.confirm/);
  class PagePrompt {
    @Prompt({ asks: { kinds: ['confirm'], fallback: 'approvalPage' } })
    p() {
      return 'x';
    }
  }
  expect(build(PagePrompt)).toThrow(/prompts and resources take 'deny' or 'none'/);
});

test('the fallback argument joins the schema, the DTO never sees it, _meta shows the asks', async () => {
  class Good {
    @Tool({ asks: { kinds: ['confirm'], fallback: 'argument' } })
    run(args: Args) {
      return args.id;
    }
  }
  const app = build(Good)();
  const def = (app as unknown as { registry: { listTools(): any[] } }).registry.listTools()[0];
  expect(def.descriptor.inputSchema.properties.userConfirmed).toEqual(
    expect.objectContaining({ type: 'boolean', description: expect.stringContaining('asked the user in the chat') }),
  );
  expect(def.descriptor._meta).toEqual({ 'io.onemodelcontext/asks': { kinds: ['confirm'], fallback: 'argument' } });
  const checked = def.validate({ id: 'a', userConfirmed: true });
  expect(checked).toEqual({ ok: true, value: expect.objectContaining({ id: 'a' }) });
  expect(def.validate({ id: 'a', userConfirmed: true }).value).not.toHaveProperty('userConfirmed');
});
