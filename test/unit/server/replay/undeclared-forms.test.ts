/** Elicitation forms are declared on their handler and checked at start-up (DESIGN D6, D7). */
import { IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import {
  ContextClient,
  ContextServerModule,
  FrameworkError,
  McpApplication,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
  connectTestClient,
  forEachEra,
  Context,
  type TestEra,
} from '../../../../src';
import { recordingLogger } from '../../../helpers/apps';

class NameForm {
  @IsString() name!: string;
}
class Address {
  @IsString() street!: string;
}
class NestedForm {
  @ValidateNested() @Type(() => Address) address!: Address;
}

function startupError(providers: Function[]): FrameworkError {
  try {
    McpApplication.create({ name: 'forms', version: '1.0.0', providers });
  } catch (error) {
    expect(error).toBeInstanceOf(FrameworkError);
    return error as FrameworkError;
  }
  throw new Error('expected start-up to fail');
}

describe('a declared form is checked when the app starts', () => {
  class Tools {
    @Tool({ description: 'asks', forms: [NestedForm] })
    ask(ctx: Context) {
      return ctx.elicit(NestedForm, 'where?');
    }
  }
  class Prompts {
    @Prompt({ description: 'asks', forms: [NameForm, NestedForm] })
    ask() {
      return 'x';
    }
  }
  class Docs {
    @Resource({ uri: 'test://doc', forms: [NestedForm] })
    doc() {
      return 'x';
    }
  }
  class Items {
    @ResourceTemplate({ uriTemplate: 'test://items/{id}', forms: [NestedForm] })
    item() {
      return 'x';
    }
  }

  it.each([
    ['tool', Tools, 'Tools.ask'],
    ['prompt', Prompts, 'Prompts.ask'],
    ['resource', Docs, 'Docs.doc'],
    ['resource template', Items, 'Items.item'],
  ])('%s: a form outside the subset stops start-up naming the handler, form and property', (_kind, cls, owner) => {
    const error = startupError([cls]);
    expect(error.code).toBe('OMC_FORM_UNSUPPORTED');
    expect(error.message).toContain(`${owner}: form NestedForm: NestedForm.address: a form is flat`);
  });

  it('forms must be classes', () => {
    class Bad {
      @Tool({ description: 'x', forms: ['NameForm' as unknown as Function] })
      ask() {
        return 'x';
      }
    }
    const error = startupError([Bad]);
    expect(error.code).toBe('OMC_INVALID_DEFINITION');
    expect(error.message).toContain('Bad.ask: forms[0] is not a class');
  });

  it('app.addTool checks its forms too', () => {
    const app = McpApplication.create({ name: 'forms', version: '1.0.0', providers: [] });
    expect(() => app.addTool({ name: 'later', forms: [NestedForm], handler: () => 'x' })).toThrow(
      /later: form NestedForm/,
    );
  });
});

class Asking {
  @Tool({ description: 'declares its form', forms: [NameForm] })
  async declared(ctx: Context) {
    const answer = await ctx.elicit(NameForm, 'Name?', { key: 'name' });
    return answer.action === 'accept' ? `hi ${answer.content.name}` : 'no';
  }

  @Tool({ description: 'forgets to declare its form' })
  async undeclared(ctx: Context) {
    const answer = await ctx.elicit(NameForm, 'Name?', { key: 'name' });
    return answer.action === 'accept' ? `hi ${answer.content.name}` : 'no';
  }

  @Tool({ description: 'forgets to declare a form that is not valid either' })
  async undeclaredInvalid(ctx: Context) {
    await ctx.elicit(NestedForm, 'Where?', { key: 'where' });
    return 'unreachable';
  }

  @Prompt({ description: 'forgets to declare its form' })
  async undeclaredPrompt(ctx: Context) {
    const answer = await ctx.elicit(NameForm, 'Name?', { key: 'name' });
    return answer.action === 'accept' ? `hi ${answer.content.name}` : 'no';
  }
}

function appWith(undeclaredForms?: 'warn' | 'refuse') {
  const logger = recordingLogger();
  const app = McpApplication.create({
    name: 'forms',
    version: '1.0.0',
    providers: [Asking],
    modules: [ContextServerModule.configure({ logger, ...(undeclaredForms ? { undeclaredForms } : {}) })],
  });
  return { app, logger };
}

const answers = { name: { action: 'accept', content: { name: 'Ada' } } };

describe('the test kit fails a call whose handler elicits an undeclared form', () => {
  forEachEra('a declared form is asked and answered', async (era) => {
    const client = await connectTestClient(appWith().app, { era, answers });
    expect((await client.callTool('declared')).text).toBe('hi Ada');
    await client.close();
  });

  forEachEra('an undeclared form fails the tool call naming handler and form', async (era) => {
    const { app } = appWith();
    const client = await connectTestClient(app, { era, answers });
    const failure = client.callTool('undeclared');
    await expect(failure).rejects.toThrow(FrameworkError);
    await expect(failure).rejects.toThrow(
      '[OMC_FORM_UNDECLARED] Asking.undeclared asked ctx.elicit(NameForm) without declaring it: add `forms: [NameForm]` to its decorator',
    );
    // The next call is judged on its own.
    expect((await client.callTool('declared')).text).toBe('hi Ada');
    await client.close();
  });

  forEachEra('prompts too', async (era) => {
    const client = await connectTestClient(appWith().app, { era, answers });
    await expect(client.getPrompt('undeclaredPrompt')).rejects.toThrow(
      /Asking.undeclaredPrompt asked ctx.elicit\(NameForm\)/,
    );
    await client.close();
  });
});

describe('in production an undeclared form is checked on first use', () => {
  const connect = (app: McpApplication, era: TestEra) =>
    ContextClient.connect(
      { app },
      { protocolVersion: era, elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    );

  forEachEra('warn (default): the ask goes ahead, one warning per handler and form', async (era) => {
    const { app, logger } = appWith();
    const client = await connect(app, era);
    for (let i = 0; i < 2; i++) {
      const result = await client.callTool('undeclared');
      expect(result.content).toEqual([{ type: 'text', text: 'hi Ada' }]);
    }
    expect(logger.lines.map((l) => l.message)).toEqual([
      'Asking.undeclared asked ctx.elicit(NameForm) without declaring it: add `forms: [NameForm]` to its decorator so the form is checked at start-up.',
    ]);
    await client.close();
  });

  forEachEra('an undeclared form outside the subset fails when first asked', async (era) => {
    const { app } = appWith();
    const client = await connect(app, era);
    const result = await client.callTool('undeclaredInvalid');
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('NestedForm.address: a form is flat');
    await client.close();
  });

  forEachEra("undeclaredForms: 'refuse' refuses the ask before anything is sent", async (era) => {
    const { app } = appWith('refuse');
    let asked = 0;
    const client = await ContextClient.connect(
      { app },
      {
        protocolVersion: era,
        elicitation: async () => {
          asked++;
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    );
    const result = await client.callTool('undeclared');
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(
      'Asking.undeclared asked ctx.elicit(NameForm) without declaring it',
    );
    expect(asked).toBe(0);
    expect((await client.callTool('declared')).content).toEqual([{ type: 'text', text: 'hi Ada' }]);
    await client.close();
  });
});
